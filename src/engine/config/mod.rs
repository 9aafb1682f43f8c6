//! The settings: where they are found ([`sources`]), how each file reads ([`settings`]), and the
//! problems found in them, located by file, line and JSON path ([`diagnostic`], [`jsonpath`]).

pub mod check;
pub mod diagnostic;
pub mod entry;
pub mod jsonpath;
pub mod placeholders;
pub mod plugins;
pub mod secrets;
pub mod settings;
pub mod shell_words;
pub mod sources;
pub mod trust;

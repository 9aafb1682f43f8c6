//! Claude Code's hook protocol, the language every layer above speaks: how a hook's stdout is
//! read, what each event can do, and how one answer is printed. It knows nothing of settings,
//! processes or hosts; it depends on the SDK only.

pub mod answer;
pub mod events;
pub mod hook_json;

pub use answer::{encode_answer, Encoded};
pub use hook_json::{read_stdout, HookJson, StdoutRead};

//! Path arithmetic shared by handlers: the platform layer's, so that handlers and `dispatch`'s
//! own rules spell a path the same way.

pub use hookmux_platform::path::{absolute, normalize};

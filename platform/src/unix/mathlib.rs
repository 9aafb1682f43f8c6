//! `log` for the C code linked into hookmux (SQLite's FTS5 ranking), so that hookmux does not load
//! glibc's `libm.so.6` at every start for one function.
//!
//! glibc keeps its math functions in a library of their own; Rust's own floating-point code and
//! the bundled SQLite's `bm25()` (its only math call in hookmux: `log` of a document frequency)
//! would make the dynamic loader map and relocate it on every hook call, about a tenth of a
//! trivial process's start (11 page faults on Linux x86-64, measured in the benchmarks page).
//! Defined here, the reference resolves inside the executable and the linker (`--as-needed`)
//! leaves `libm.so.6` out. The definition is the `libm` crate's port of musl's, which is within one
//! unit in the last place of glibc's; an executable's definitions are not seen by the libraries
//! it loads, so nothing else changes. macOS has its math in libSystem and needs none of this.

/// The natural logarithm, for C callers in this executable.
#[unsafe(no_mangle)]
pub extern "C" fn log(x: f64) -> f64 {
    libm::log(x)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_logarithm_is_the_natural_one() {
        assert_eq!(super::log(1.0), 0.0);
        assert!((super::log(std::f64::consts::E) - 1.0).abs() < 1e-15);
        assert!((super::log(10.0) - std::f64::consts::LN_10).abs() < 1e-15);
        assert!(super::log(0.0).is_infinite() && super::log(0.0) < 0.0);
        assert!(super::log(-1.0).is_nan());
    }
}

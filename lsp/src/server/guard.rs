//! A panic in one request must not take the server down: engine calls run under `catch_unwind`.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`; a panic becomes `Err(message)`.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        p.downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_becomes_an_error() {
        assert_eq!(super::catch(|| 1 + 1), Ok(2));
        let r: Result<(), String> = super::catch(|| panic!("boom {}", 42));
        assert_eq!(r, Err("boom 42".to_string()));
    }
}

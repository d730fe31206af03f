//! Every call into the engine goes through `detached`: the GIL is released for the engine's work
//! (the application's threads keep running) and a panic is caught here, so none reaches Python as
//! pyo3's `PanicException` (a `BaseException` that would escape the hosts' `except Exception`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use pyo3::create_exception;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

create_exception!(
    _native,
    NativeEngineError,
    PyRuntimeError,
    "The native engine failed on this input (a bug): the call is reported as a scoring error."
);

/// Runs `work` without the GIL; a panic becomes `NativeEngineError` with its message.
pub fn detached<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce() -> T + Send,
{
    py.detach(|| catch_unwind(AssertUnwindSafe(work)))
        .map_err(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .map(|text| (*text).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            NativeEngineError::new_err(format!("native engine panicked: {message}"))
        })
}

/// Proves the boundary (a test hook): inside `detached`, waits `hold_ms` of wall time, then panics
/// when asked, else returns `value`.
#[pyfunction]
fn boundary_check(py: Python<'_>, value: i64, panic: bool, hold_ms: u64) -> PyResult<i64> {
    detached(py, move || {
        let until = Instant::now() + Duration::from_millis(hold_ms);
        while Instant::now() < until {
            std::hint::spin_loop();
        }
        if panic {
            panic!("boundary check {value}");
        }
        value
    })
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add(
        "NativeEngineError",
        module.py().get_type::<NativeEngineError>(),
    )?;
    module.add_function(wrap_pyfunction!(boundary_check, module)?)
}

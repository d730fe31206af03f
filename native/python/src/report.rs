//! Report objects made at the boundary: `AtomVerdict` and `Citation` of `scoring/results.py` are
//! frozen dataclasses with `__slots__`, whose `__init__` sets each field through
//! `object.__setattr__` in Python. Here an instance is allocated as `object.__new__` does and
//! each slot is set through its member descriptor (`PyObject_GenericSetAttr`, what
//! `object.__setattr__` calls): the same object, without running Python code per field.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};

/// A new instance of `class` (a slotted class without a custom `__new__`) with `fields` set, in
/// order; every slot the class declares must be among them.
pub(crate) fn instance<'py>(
    class: &Bound<'py, PyType>,
    fields: &[(&Bound<'py, PyString>, &Bound<'py, PyAny>)],
) -> PyResult<Bound<'py, PyAny>> {
    let py = class.py();
    // SAFETY: `class` is a live type object (borrowed for the call); `PyType_GenericAlloc`
    // returns a new reference or NULL with an exception set, which `from_owned_ptr_or_err` takes
    // over. `PyObject_GenericSetAttr` borrows the object, the name and the value (it takes its
    // own reference to the value) and returns -1 with an exception set on failure.
    unsafe {
        let object = ffi::PyType_GenericAlloc(class.as_type_ptr(), 0);
        let object = Bound::from_owned_ptr_or_err(py, object)?;
        for (name, value) in fields {
            if ffi::PyObject_GenericSetAttr(object.as_ptr(), name.as_ptr(), value.as_ptr()) < 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(object)
    }
}

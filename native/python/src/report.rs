//! Report objects made at the boundary: `AtomVerdict` and `Citation` of `scoring/results.py` are
//! frozen dataclasses with `__slots__`, whose `__init__` sets each field through
//! `object.__setattr__` in Python. Here an instance is allocated as `object.__new__` does and
//! each slot is filled as its member descriptor fills it: the same object, without running
//! Python code per field. The report makes hundreds of them with the GIL held, so where the slots
//! are is found once per call (`Slots::probe`) and they are written directly.

use std::mem::size_of;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyType};

/// How a class's instances are made, its fields given in the order of `names`.
pub(crate) struct Slots<'py, const N: usize> {
    class: Bound<'py, PyType>,
    names: [&'py Bound<'py, PyString>; N],
    /// Each field's byte offset in an instance (None: not found, each is set by name).
    offsets: Option<[usize; N]>,
}

impl<'py, const N: usize> Slots<'py, N> {
    /// Finds where `class` keeps each field: a probe instance gets a distinct object in every
    /// field (set as `object.__setattr__` does), and each must be found exactly once among the
    /// instance's words past the object header. `class` must be a slotted class without a custom
    /// `__new__` whose slots are `names`.
    pub(crate) fn probe(
        class: &Bound<'py, PyType>,
        names: [&'py Bound<'py, PyString>; N],
    ) -> PyResult<Self> {
        let py = class.py();
        let markers = names.map(|_| PyList::empty(py).into_any());
        let probe = set_by_name(class, names.iter().copied().zip(&markers))?;
        let size: usize = class.getattr("__basicsize__")?.extract()?;
        let item_size: usize = class.getattr("__itemsize__")?.extract()?;
        let word = size_of::<*mut ffi::PyObject>();
        let words: Vec<usize> = (size_of::<ffi::PyObject>()..size)
            .step_by(word)
            .filter(|offset| offset + word <= size)
            .collect();
        let find = |marker: &Bound<'py, PyAny>| {
            let mut found = words.iter().filter(|offset| {
                // SAFETY: `offset + word <= size`: the word lies inside the probe instance of
                // `__basicsize__` bytes (an instance's pointer and its basic size are
                // pointer-aligned); it is read, never written.
                let stored = unsafe {
                    probe
                        .as_ptr()
                        .cast::<u8>()
                        .add(**offset)
                        .cast::<*mut ffi::PyObject>()
                        .read()
                };
                stored == marker.as_ptr()
            });
            match (found.next(), found.next()) {
                (Some(offset), None) => Some(*offset),
                _ => None,
            }
        };
        let offsets = markers.each_ref().map(find);
        let offsets = (item_size == 0 && offsets.iter().all(Option::is_some))
            .then(|| offsets.map(|offset| offset.unwrap_or_default()));
        Ok(Slots {
            class: class.clone(),
            names,
            offsets,
        })
    }

    /// A new instance with `values` in its fields (in the order of `names`).
    pub(crate) fn instance(&self, values: [&Bound<'py, PyAny>; N]) -> PyResult<Bound<'py, PyAny>> {
        let Some(offsets) = &self.offsets else {
            return set_by_name(&self.class, self.names.iter().copied().zip(values));
        };
        let py = self.class.py();
        // SAFETY: `PyType_GenericAlloc` returns a new, zero-filled instance of the class (every
        // slot NULL) or NULL with an exception set, which `from_owned_ptr_or_err` takes over.
        // Each offset is where `probe` found the field's object in an instance of this class, so
        // a slot holding an object pointer (what its member descriptor reads and releases): it
        // takes a new reference to the value, as `object.__setattr__` does.
        unsafe {
            let object = ffi::PyType_GenericAlloc(self.class.as_type_ptr(), 0);
            let object = Bound::from_owned_ptr_or_err(py, object)?;
            for (offset, value) in offsets.iter().zip(values) {
                let slot = object
                    .as_ptr()
                    .cast::<u8>()
                    .add(*offset)
                    .cast::<*mut ffi::PyObject>();
                slot.write(value.clone().into_ptr());
            }
            Ok(object)
        }
    }
}

/// A new instance of `class` (a slotted class without a custom `__new__`) with `fields` set, in
/// order, through their member descriptors.
fn set_by_name<'a, 'py: 'a>(
    class: &Bound<'py, PyType>,
    fields: impl IntoIterator<Item = (&'a Bound<'py, PyString>, &'a Bound<'py, PyAny>)>,
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

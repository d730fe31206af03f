//! The evidence boundary: Python evidence items converted once into the engine's value arena
//! (iteratively, and no further than the walk can read), the walk run with the GIL released, and
//! `collect`'s result handed back as plain Python data for the tests.

use groundedness_engine::corpus::{
    self, Corpus, Evidence, Item, Literal, Settings, Source, MAX_DEPTH,
};
use groundedness_engine::float_repr::py_float_repr;
use groundedness_engine::fxhash::FxHashMap as HashMap;
use groundedness_engine::keyed::parse_decimal;
use groundedness_engine::offsets::CharOffsets;
use groundedness_engine::pytext::{at_most_chars, char_prefix, lossy, lstrip, strip};
use groundedness_engine::value::{Arena, Node, NodeId, Span, TooLarge};
use pyo3::exceptions::{PyMemoryError, PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::iter::BoundListIterator;
use pyo3::types::{
    PyBool, PyBytes, PyDict, PyFloat, PyInt, PyIterator, PyList, PyString, PyTuple, PyType,
};
use std::borrow::Cow;

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(collect, module)?)
}

/// `corpus.collect(items, prompt, max_evidence_bytes, every_string=...)` in plain data:
/// `(fragments, scalar_values, scalar_rows, has_tool_evidence, reasons (sorted), arrays)` with
/// fragment = (source, path, labels, text, siblings), row = (source, path, labels, (literal type,
/// literal text), currency, siblings, start, end), array = (source, path, rows (at most 4097),
/// the rows' cells (`table_rows`), siblings), source = (index, source_id, kind, name), siblings =
/// None or (ordinal of first appearance, (key, the value if a str of at most 200 characters)).
#[pyfunction]
#[pyo3(signature = (items, prompt, max_evidence_bytes, every_string))]
fn collect<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    prompt: Option<&Bound<'py, PyAny>>,
    max_evidence_bytes: i64,
    every_string: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let (corpus, labels) = walk(py, items, prompt, max_evidence_bytes, every_string)?;
    plain(py, &corpus, &labels)
}

/// Each item's `source_id`, `kind` and `name` as the caller gave them (None: not `Evidence`).
pub(crate) type SourceLabels<'py> = Vec<Option<[Bound<'py, PyAny>; 3]>>;

/// The engine's `Corpus` of Python evidence, as `corpus.collect` walks it (its exception, when
/// it raises, raised again), and the items' source labels.
pub(crate) fn walk<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    prompt: Option<&Bound<'py, PyAny>>,
    max_evidence_bytes: i64,
    every_string: bool,
) -> PyResult<(Corpus, SourceLabels<'py>)> {
    let converted = convert(py, items, prompt, max_evidence_bytes, every_string)?;
    let (evidence, settings) = (converted.evidence, converted.settings);
    let corpus = py.detach(move || corpus::collect(evidence, settings));
    match converted.raised {
        Some(error) if corpus.raised => Err(error),
        _ => Ok((corpus, converted.labels)),
    }
}

/// Python evidence converted for `corpus::collect` (the only part of the walk that needs the
/// GIL: the caller runs the walk itself without it).
pub(crate) struct Converted<'py> {
    pub evidence: Evidence,
    pub settings: Settings,
    /// The first error reading a value raised: the walk's, if the corpus says it `raised`.
    pub raised: Option<PyErr>,
    pub labels: SourceLabels<'py>,
}

/// Converts the evidence items (and the prompt, when it is evidence) into the engine's arena.
pub(crate) fn convert<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    prompt: Option<&Bound<'py, PyAny>>,
    max_evidence_bytes: i64,
    every_string: bool,
) -> PyResult<Converted<'py>> {
    let mut converter = Converter::new(py, max_evidence_bytes)?;
    let evidence = converter.evidence(items, prompt)?;
    let settings = Settings {
        max_bytes: max_evidence_bytes,
        every_string,
        max_int_digits: INT_MAX_STR_DIGITS
            .import(py, "sys", "get_int_max_str_digits")?
            .call0()?
            .extract()?,
    };
    Ok(Converted {
        evidence,
        settings,
        raised: converter.raised,
        labels: converter.labels,
    })
}

/// Python types the conversion tells apart beyond the built-in ones.
struct Types<'py> {
    mapping: Bound<'py, PyType>,
    decimal: Bound<'py, PyType>,
    date: Bound<'py, PyType>,
    time: Bound<'py, PyType>,
    evidence: Bound<'py, PyType>,
    largest_int: Bound<'py, PyAny>,
}

static MAPPING: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static DECIMAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static DATE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static TIME: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static EVIDENCE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
/// `10 ** 308`, made once.
static LARGEST_INT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `sys.get_int_max_str_digits` (called on every walk: the limit can change at run time).
static INT_MAX_STR_DIGITS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// Containers are converted this deep: the walk stops at `MAX_DEPTH` frames, and its stack can
/// lag the nesting by one (a record of a list of records is read before its frame is pushed).
const CONVERTED_DEPTH: usize = MAX_DEPTH + 2;

/// A container being converted: its remaining children and where its finished children start on
/// the scratch stack.
struct Open<'py> {
    id: NodeId,
    children: Children<'py>,
    exact: bool,
    first: usize,
    mode: Mode,
    /// A row of a table read past the budget (its cells are read).
    row: bool,
    object: Bound<'py, PyAny>,
    /// The budget before it, how many budget tails had begun, how deep its containers nest.
    before: i64,
    tails: usize,
    height: usize,
}

/// A container converted in full, by the address of its object (kept alive here).
struct Shared<'py> {
    node: NodeId,
    charge: i64,
    height: usize,
    _object: Bound<'py, PyAny>,
}

enum Children<'py> {
    List(BoundListIterator<'py>),
    /// A `dict`'s items, listed when it is opened (a `str()` called later cannot change them
    /// under the iteration).
    Dict(BoundListIterator<'py>),
    /// Any other sequence's items.
    Items(Bound<'py, PyIterator>),
    /// Any other mapping's `items()`.
    Pairs(Bound<'py, PyIterator>),
}

impl<'py> Children<'py> {
    fn is_map(&self) -> bool {
        matches!(self, Children::Dict(_) | Children::Pairs(_))
    }

    /// The next child: `(Some(key), value)` for a mapping.
    #[allow(clippy::type_complexity)]
    fn next(&mut self) -> PyResult<Option<(Option<Bound<'py, PyAny>>, Bound<'py, PyAny>)>> {
        Ok(match self {
            Children::List(items) => items.next().map(|item| (None, item)),
            Children::Dict(pairs) => match pairs.next() {
                Some(pair) => {
                    let (key, value): (Bound<'py, PyAny>, Bound<'py, PyAny>) = pair.extract()?;
                    Some((Some(key), value))
                }
                None => None,
            },
            Children::Items(items) => items.next().transpose()?.map(|item| (None, item)),
            Children::Pairs(pairs) => match pairs.next().transpose()? {
                Some(pair) => {
                    let (key, value): (Bound<'py, PyAny>, Bound<'py, PyAny>) = pair.extract()?;
                    Some((Some(key), value))
                }
                None => None,
            },
        })
    }
}

/// How a container's children are converted: in full (within the budget), or once the budget is
/// spent, only what later stages read (see `Converter::enter_tail`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Full,
    Shallow,
    Rows,
    /// A list entered just before the budget ran out: rows if its first item is one.
    RowsIfFirst,
    /// Any other list: its next child (where the walk is cut) stands as `Cut`, then it ends.
    CutNext,
    Done,
}

/// How a fetched child is to be converted.
#[derive(Clone, Copy)]
enum Pending {
    Value,
    MappingValue,
    /// Past the budget: a leaf, or `Cut`.
    Tail,
    /// Past the budget, a table's row: its cells shallowly.
    Row,
}

/// Past the budget a table is read this many rows deep (`tables.MAX_TABLE_CELLS`, and one more
/// so its length still tells whether it has more than `table_json.MAX_RECORDS`).
const TAIL_ROWS: usize = 4097;
/// Past the budget a string longer than this is not kept: siblings and cells are read only when
/// short (a caption's value: 200 characters at most).
const TAIL_TEXT_CHARS: usize = 200;

/// What one Python value becomes: a leaf node, or a container to open.
enum Value<'py> {
    Leaf(Node),
    Open(Children<'py>, bool),
}

struct Converter<'py> {
    py: Python<'py>,
    arena: Arena,
    types: Types<'py>,
    /// Bytes the walk will surely have charged by here: it stops reading when they pass the cap,
    /// so conversion stops there too (`Node::Cut`).
    budget: i64,
    /// The first error reading a value raised (`Node::Raises`), re-raised if the walk reaches it.
    raised: Option<PyErr>,
    memo: HashMap<usize, Shared<'py>>,
    /// The containers being converted, by the address of their object.
    open_ids: HashMap<usize, NodeId>,
    /// How many times the budget ran out (each begins tails: see `enter_tail`).
    tails: usize,
    /// Each item's `source_id`, `kind` and `name` as the caller gave them (None: not `Evidence`).
    labels: SourceLabels<'py>,
}

fn too_large(_: TooLarge) -> PyErr {
    PyMemoryError::new_err("evidence larger than the native engine's 4 GiB arena")
}

impl<'py> Converter<'py> {
    fn new(py: Python<'py>, max_bytes: i64) -> PyResult<Self> {
        let types = Types {
            mapping: MAPPING.import(py, "collections.abc", "Mapping")?.clone(),
            decimal: DECIMAL.import(py, "decimal", "Decimal")?.clone(),
            date: DATE.import(py, "datetime", "date")?.clone(),
            time: TIME.import(py, "datetime", "time")?.clone(),
            evidence: EVIDENCE
                .import(py, "otel_groundedness.scoring.evidence", "Evidence")?
                .clone(),
            largest_int: LARGEST_INT
                .get_or_try_init(py, || -> PyResult<Py<PyAny>> {
                    Ok(PyInt::new(py, 10).pow(308, py.None())?.unbind())
                })?
                .bind(py)
                .clone(),
        };
        Ok(Converter {
            py,
            arena: Arena::default(),
            types,
            budget: max_bytes,
            raised: None,
            memo: HashMap::default(),
            open_ids: HashMap::default(),
            labels: Vec::new(),
            tails: 0,
        })
    }

    fn evidence(
        &mut self,
        items: &Bound<'py, PyAny>,
        prompt: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Evidence> {
        let mut evidence_prompt = None;
        if let Some(prompt) = prompt.filter(|prompt| prompt.is_truthy().unwrap_or(false)) {
            evidence_prompt = Some(self.convert(prompt)?);
        }
        self.arena.text.reserve(string_bytes(items, self.budget));
        let mut converted = Vec::new();
        for (index, item) in items.try_iter()?.enumerate() {
            let item = item?;
            let (source, content) = if item.is_instance(&self.types.evidence)? {
                let labels = [
                    item.getattr("source_id")?,
                    item.getattr("kind")?,
                    item.getattr("name")?,
                ];
                // The engine reads only whether the kind is "user_prompt"; other types (which the
                // dataclass does not refuse) are handed back as they are.
                let [source_id, kind, name] = labels.each_ref().map(text_or_none);
                let source = Source {
                    index: Some(index),
                    source_id: source_id.transpose()?,
                    kind: kind.transpose()?.unwrap_or_default(),
                    name: name.transpose()?,
                };
                self.labels.push(Some(labels));
                (source, item.getattr("content")?)
            } else {
                let source = Source {
                    index: Some(index),
                    source_id: None,
                    kind: b"tool_result".to_vec(),
                    name: None,
                };
                self.labels.push(None);
                (source, item)
            };
            let empty = is_empty(&content)?;
            let content = if self.budget > 0 {
                self.convert(&content)?
            } else {
                let exact = is_exact_container(&content);
                self.arena.push(Node::Cut { exact }).map_err(too_large)?
            };
            converted.push(Item {
                source,
                content,
                empty,
            });
        }
        Ok(Evidence {
            arena: std::mem::take(&mut self.arena),
            prompt: evidence_prompt,
            items: converted,
        })
    }

    /// Converts one item, depth first on an explicit stack; children of a container become one
    /// run of links when it closes.
    fn convert(&mut self, root: &Bound<'py, PyAny>) -> PyResult<NodeId> {
        let mut open: Vec<Open<'py>> = Vec::new();
        let mut scratch: Vec<NodeId> = Vec::new();
        let mut pending: Option<(Bound<'py, PyAny>, Pending)> =
            Some((root.clone(), Pending::Value));
        loop {
            if let Some((value, how)) = pending.take() {
                let depth = open.len();
                let full = matches!(how, Pending::Value | Pending::MappingValue);
                if full {
                    if let Some(&ancestor) = self.open_ids.get(&(value.as_ptr() as usize)) {
                        // A cycle: the walk goes round it as Python's does, until a cap stops it.
                        self.charge(2, depth);
                        scratch.push(ancestor);
                        continue;
                    }
                    if let Some(node) = self.shared(&value, depth) {
                        scratch.push(node);
                        continue;
                    }
                }
                let before = self.budget;
                let converted = match how {
                    Pending::Value => self.classify_or_raise(&value, false, depth),
                    Pending::MappingValue => self.classify_or_raise(&value, true, depth),
                    Pending::Tail => Value::Leaf(self.tail_leaf(&value, depth)?),
                    Pending::Row => match self.classify_tail_row(&value)? {
                        Some(children) => Value::Open(children, is_exact_container(&value)),
                        None => Value::Leaf(self.tail_leaf(&value, depth)?),
                    },
                };
                match converted {
                    Value::Leaf(node) => {
                        scratch.push(self.arena.push(node).map_err(too_large)?);
                    }
                    Value::Open(children, exact) => {
                        let row = matches!(how, Pending::Row);
                        // Its node is made now (filled in when it closes) so a cycle can link to it.
                        let map = children.is_map();
                        let id = self
                            .arena
                            .push(Node::Unread { map, exact })
                            .map_err(too_large)?;
                        if !row {
                            self.open_ids.insert(value.as_ptr() as usize, id);
                        }
                        open.push(Open {
                            id,
                            children,
                            exact,
                            first: scratch.len(),
                            mode: if row { Mode::Shallow } else { Mode::Full },
                            row,
                            object: value,
                            before,
                            tails: self.tails,
                            height: 0,
                        });
                    }
                }
            }
            if open.last().is_some_and(|top| top.mode == Mode::Full) && self.budget <= 0 {
                self.enter_tail(&mut open, &scratch);
            }
            let depth = open.len();
            let Some(top) = open.last_mut() else {
                return scratch
                    .pop()
                    .ok_or_else(|| PyOverflowError::new_err("evidence conversion lost its root"));
            };
            let read = scratch.len() - top.first;
            let next = match top.mode {
                Mode::Done => None,
                Mode::Rows if read >= TAIL_ROWS => None,
                _ => top.children.next()?,
            };
            let Some((key, value)) = next else {
                let Some(closed) = open.pop() else {
                    continue;
                };
                let links = self
                    .arena
                    .push_links(scratch.get(closed.first..).unwrap_or_default())
                    .map_err(too_large)?;
                scratch.truncate(closed.first);
                let node = if closed.children.is_map() {
                    Node::Map {
                        links,
                        exact: closed.exact,
                    }
                } else {
                    Node::List {
                        links,
                        exact: closed.exact,
                    }
                };
                let id = closed.id;
                if let Some(slot) = self.arena.nodes.get_mut(id as usize) {
                    *slot = node;
                }
                if !closed.row {
                    self.open_ids.remove(&(closed.object.as_ptr() as usize));
                }
                scratch.push(id);
                if let Some(parent) = open.last_mut() {
                    parent.height = parent.height.max(closed.height + 1);
                }
                self.share(closed, id, open.len());
                continue;
            };
            let is_map = top.children.is_map();
            if let Some(key) = key {
                let node = self.key(&key, depth)?;
                scratch.push(self.arena.push(node).map_err(too_large)?);
            }
            pending = match top.mode {
                Mode::Full if is_map && self.budget <= 0 => {
                    // The walk is cut after this key; the mapping's other values are still read
                    // as siblings.
                    self.enter_tail(&mut open, &scratch);
                    Some((value, Pending::Tail))
                }
                Mode::Full if is_map => Some((value, Pending::MappingValue)),
                Mode::Full => Some((value, Pending::Value)),
                Mode::Shallow => Some((value, Pending::Tail)),
                Mode::Rows => Some((value, Pending::Row)),
                Mode::RowsIfFirst if is_exact_container(&value) => {
                    top.mode = Mode::Rows;
                    Some((value, Pending::Row))
                }
                Mode::RowsIfFirst if top.row => {
                    top.mode = Mode::Shallow;
                    Some((value, Pending::Tail))
                }
                Mode::RowsIfFirst | Mode::CutNext | Mode::Done => {
                    // The walk is cut at this child: it is there, unread.
                    top.mode = Mode::Done;
                    let exact = is_exact_container(&value);
                    scratch.push(self.arena.push(Node::Cut { exact }).map_err(too_large)?);
                    None
                }
            };
        }
    }

    /// A container already converted in full, met again (the same object twice in the evidence):
    /// its node, so that it keeps one identity as in Python (siblings, tables), its bytes charged
    /// again as the walk will. Not where the walk's depth limits could treat it differently.
    fn shared(&mut self, value: &Bound<'py, PyAny>, depth: usize) -> Option<NodeId> {
        let shared = self.memo.get(&(value.as_ptr() as usize))?;
        if depth + shared.height + 2 >= MAX_DEPTH {
            return None;
        }
        let (node, charge) = (shared.node, shared.charge);
        self.budget = (self.budget - charge).max(0);
        Some(node)
    }

    /// Remembers a container converted in full (no budget tail inside it) for `shared`.
    fn share(&mut self, closed: Open<'py>, node: NodeId, depth: usize) {
        let whole = closed.mode == Mode::Full && closed.tails == self.tails;
        if whole && depth + closed.height + 2 < MAX_DEPTH {
            let shared = Shared {
                node,
                charge: closed.before - self.budget,
                height: closed.height,
                _object: closed.object,
            };
            self.memo.insert(shared._object.as_ptr() as usize, shared);
        }
    }

    /// The budget is spent: the walk reads no more, but what the later stages read of the open
    /// containers is kept, shallowly. A mapping's other values are siblings (labels, currency,
    /// a table's caption); a list of rows or records the walk noted is read as a table (up to
    /// `TAIL_ROWS` rows, their cells); any other list ends here.
    fn enter_tail(&mut self, open: &mut [Open<'py>], scratch: &[NodeId]) {
        self.tails += 1;
        let mut in_rows = false;
        for at in 0..open.len() {
            let first = open.get(at).map_or(0, |container| container.first);
            // The first child is the next open container, or the first converted one.
            let first_exact = match open.get(at + 1) {
                Some(inner) if inner.first == first => Some(inner.exact),
                _ => scratch
                    .get(first)
                    .map(|child| self.arena.node(*child).is_exact_container()),
            };
            let Some(container) = open.get_mut(at) else {
                break;
            };
            container.row = in_rows;
            container.mode = if container.children.is_map() {
                Mode::Shallow
            } else {
                // A list may be a table (its rows are read) and a row of one (its cells are).
                match first_exact {
                    Some(true) => Mode::Rows,
                    None => Mode::RowsIfFirst,
                    Some(false) if in_rows => Mode::Shallow,
                    Some(false) => Mode::CutNext,
                }
            };
            in_rows = matches!(container.mode, Mode::Rows | Mode::RowsIfFirst);
        }
    }

    /// A row of a table past the budget: its children to convert shallowly (None: not a row).
    fn classify_tail_row(&self, value: &Bound<'py, PyAny>) -> PyResult<Option<Children<'py>>> {
        Ok(if let Ok(dict) = value.cast_exact::<PyDict>() {
            Some(Children::Dict(dict.items().iter()))
        } else if let Ok(list) = value.cast_exact::<PyList>() {
            Some(Children::List(list.iter()))
        } else if value.is_instance(&self.types.mapping)? {
            Some(Children::Pairs(value.call_method0("items")?.try_iter()?))
        } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
            Some(Children::Items(value.try_iter()?))
        } else {
            None
        })
    }

    /// A value past the budget: a number or short string as it is (what siblings and cells are
    /// read for), anything else as `Cut`.
    fn tail_leaf(&mut self, value: &Bound<'py, PyAny>, depth: usize) -> PyResult<Node> {
        let exact = is_exact_container(value);
        let short_text = value
            .cast::<PyString>()
            .is_ok_and(|text| text.len().is_ok_and(|len| len <= TAIL_TEXT_CHARS));
        let plain = value.is_none()
            || value.is_instance_of::<PyBool>()
            || value.is_instance_of::<PyInt>()
            || value.is_instance_of::<PyFloat>();
        if !(short_text || plain) {
            return Ok(Node::Cut { exact });
        }
        match self.classify(value, true, depth) {
            Ok(Value::Leaf(node)) => Ok(node),
            Ok(Value::Open(..)) | Err(_) => Ok(Node::Cut { exact }),
        }
    }

    /// Charges what the walk will at least charge for a value at `depth` (nothing past
    /// `MAX_DEPTH`, where the walk may stop without charging).
    fn charge(&mut self, bytes: i64, depth: usize) {
        if depth < MAX_DEPTH {
            self.budget = (self.budget - bytes).max(0);
        }
    }

    fn text(&mut self, text: &[u8]) -> PyResult<Span> {
        self.arena.push_text(text).map_err(too_large)
    }

    /// What the walk charges a string at least: one byte for a JSON-looking one (its parsed
    /// content may cost less than its text, never less than that), else its stripped bytes.
    fn string_charge(&mut self, text: &[u8]) -> i64 {
        let head = text.get(..char_prefix(text, 64)).unwrap_or(text);
        if matches!(head.get(lstrip(head)), Some(b'{' | b'[')) {
            return 1;
        }
        let (start, end) = strip(text);
        (end - start) as i64
    }

    /// A mapping key: a `str` key's text, or `str()` of another key ("" when that raises).
    fn key(&mut self, key: &Bound<'py, PyAny>, depth: usize) -> PyResult<Node> {
        let (text, is_str) = if let Ok(key) = key.cast::<PyString>() {
            let text = if key.is_exact_instance_of::<PyString>() {
                text_of(key)?.into_owned()
            } else {
                text_of(&key.str()?)?.into_owned()
            };
            (text, true)
        } else {
            match key.str() {
                Ok(text) => (text_of(&text)?.into_owned(), false),
                Err(_) => (Vec::new(), false),
            }
        };
        self.charge(text.len() as i64, depth);
        let span = self.text(&text)?;
        Ok(if is_str {
            Node::Str(span)
        } else {
            Node::Text(span)
        })
    }

    /// `classify`, an error kept for the walk to raise if it reaches the value (as Python's
    /// raises only then).
    fn classify_or_raise(
        &mut self,
        value: &Bound<'py, PyAny>,
        in_mapping: bool,
        depth: usize,
    ) -> Value<'py> {
        match self.classify(value, in_mapping, depth) {
            Ok(converted) => converted,
            Err(error) => {
                self.raised.get_or_insert(error);
                Value::Leaf(Node::Raises)
            }
        }
    }

    /// One value, in `_Walker._value`'s order of checks.
    fn classify(
        &mut self,
        value: &Bound<'py, PyAny>,
        in_mapping: bool,
        depth: usize,
    ) -> PyResult<Value<'py>> {
        if let Ok(text) = value.cast_exact::<PyString>() {
            let bytes = text_of(text)?;
            let charge = self.string_charge(&bytes);
            self.charge(charge, depth);
            return Ok(Value::Leaf(Node::Str(self.text(&bytes)?)));
        }
        if value.is_exact_instance_of::<PyInt>() {
            let node = self.int(value)?;
            if !matches!(node, Node::HugeInt) {
                self.charge(8, depth);
            }
            return Ok(Value::Leaf(node));
        }
        if let Ok(number) = value.cast_exact::<PyFloat>() {
            let number = number.value();
            if number.is_finite() {
                self.charge(8, depth);
            }
            return Ok(Value::Leaf(Node::Float(number)));
        }
        if value.is_none() || value.is_exact_instance_of::<PyBool>() {
            self.charge(i64::from(!in_mapping), depth);
            let node = match value.cast_exact::<PyBool>() {
                Ok(flag) => Node::Bool(flag.is_true()),
                Err(_) => Node::Null,
            };
            return Ok(Value::Leaf(node));
        }
        let container = if let Ok(dict) = value.cast_exact::<PyDict>() {
            Some((Children::Dict(dict.items().iter()), true))
        } else if let Ok(list) = value.cast_exact::<PyList>() {
            Some((Children::List(list.iter()), true))
        } else if value.is_instance(&self.types.mapping)? {
            let pairs = value.call_method0("items")?.try_iter()?;
            Some((Children::Pairs(pairs), false))
        } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
            Some((Children::Items(value.try_iter()?), false))
        } else {
            None
        };
        if let Some((children, exact)) = container {
            if depth >= CONVERTED_DEPTH {
                let map = children.is_map();
                return Ok(Value::Leaf(Node::Unread { map, exact }));
            }
            self.charge(2, depth);
            return Ok(Value::Open(children, exact));
        }
        if value.is_instance_of::<PyString>() {
            let text = text_of(&value.str()?)?.into_owned();
            let charge = self.string_charge(&text);
            self.charge(charge, depth);
            return Ok(Value::Leaf(Node::StrSubclass(self.text(&text)?)));
        }
        if let Some(number) = self.finite_number(value)? {
            self.charge(8, depth);
            let literal = text_of(&value.str()?)?.into_owned();
            let literal = self.text(&literal)?;
            return Ok(Value::Leaf(Node::Number {
                value: number,
                literal,
            }));
        }
        let text = if value.is_instance(&self.types.date)? || value.is_instance(&self.types.time)? {
            value.call_method0("isoformat")?.str()?
        } else {
            match value.str() {
                Ok(text) => text,
                Err(_) => return Ok(Value::Leaf(Node::Opaque)), // a broken __str__
            }
        };
        let text = text_of(&text)?.into_owned();
        self.charge(text.len() as i64, depth);
        Ok(Value::Leaf(Node::Text(self.text(&text)?)))
    }

    /// An exact `int`: an i64, its decimal text within ±10**308, or too large to be a float.
    fn int(&mut self, value: &Bound<'py, PyAny>) -> PyResult<Node> {
        if let Ok(small) = value.extract::<i64>() {
            return Ok(Node::Int(small));
        }
        if !value.call_method0("__abs__")?.lt(&self.types.largest_int)? {
            return Ok(Node::HugeInt);
        }
        let text = text_of(&value.str()?)?.into_owned();
        Ok(Node::BigInt(self.text(&text)?))
    }

    /// `_finite_number`: the float value of a non-bool int, float or Decimal, if finite.
    fn finite_number(&self, value: &Bound<'py, PyAny>) -> PyResult<Option<f64>> {
        let numeric = value.is_instance_of::<PyInt>()
            || value.is_instance_of::<PyFloat>()
            || value.is_instance(&self.types.decimal)?;
        if !numeric || value.is_instance_of::<PyBool>() {
            return Ok(None);
        }
        let builtins = self.py.import("builtins")?;
        match builtins.getattr("float")?.call1((value,)) {
            Ok(number) => Ok(Some(number.extract::<f64>()?).filter(|number| number.is_finite())),
            // Too large, or no float value at all (`Decimal("sNaN")`): no figure.
            Err(error)
                if error.is_instance_of::<PyOverflowError>(self.py)
                    || error.is_instance_of::<PyValueError>(self.py) =>
            {
                Ok(None)
            }
            Err(error) => Err(error),
        }
    }
}

/// About the bytes of the items given as `str` in a list or tuple (their characters), at most
/// `budget`: the arena's text grown item by item was copied at each doubling.
fn string_bytes(items: &Bound<'_, PyAny>, budget: i64) -> usize {
    let budget = usize::try_from(budget).unwrap_or(0);
    let sum = |each: &mut dyn Iterator<Item = Bound<'_, PyAny>>| {
        each.filter(|item| item.is_exact_instance_of::<PyString>())
            .map(|item| item.len().unwrap_or(0))
            .try_fold(0_usize, |total, len| {
                let total = total.saturating_add(len);
                (total < budget).then_some(total)
            })
            .unwrap_or(budget)
    };
    if let Ok(list) = items.cast_exact::<PyList>() {
        sum(&mut list.iter())
    } else if let Ok(tuple) = items.cast_exact::<PyTuple>() {
        sum(&mut tuple.iter())
    } else {
        0
    }
}

fn is_exact_container(value: &Bound<'_, PyAny>) -> bool {
    value.is_exact_instance_of::<PyList>() || value.is_exact_instance_of::<PyDict>()
}

/// `_is_empty`.
fn is_empty(content: &Bound<'_, PyAny>) -> PyResult<bool> {
    if content.is_none() {
        return Ok(true);
    }
    let sized = content.is_instance_of::<PyString>()
        || content.is_instance_of::<PyList>()
        || content.is_instance_of::<PyDict>()
        || content.is_instance_of::<PyTuple>();
    Ok(sized && content.len()? == 0)
}

/// A `str`'s text in the engine's encoding (lone surrogates kept, as `"surrogatepass"` does).
pub(crate) fn text_of<'a>(text: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, [u8]>> {
    match text.to_str() {
        Ok(valid) => Ok(Cow::Borrowed(valid.as_bytes())),
        Err(_) => {
            let encoded = text.call_method1("encode", ("utf-8", "surrogatepass"))?;
            Ok(Cow::Owned(encoded.cast::<PyBytes>()?.as_bytes().to_vec()))
        }
    }
}

/// A `str`'s text, None for anything else.
fn text_or_none(value: &Bound<'_, PyAny>) -> Option<PyResult<Vec<u8>>> {
    let text = value.cast::<PyString>().ok()?;
    Some(text_of(text).map(Cow::into_owned))
}

/// Engine text back to a Python `str`.
pub(crate) fn py_text<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    match std::str::from_utf8(text) {
        Ok(valid) => Ok(PyString::new(py, valid).into_any()),
        Err(_) => PyBytes::new(py, text).call_method1("decode", ("utf-8", "surrogatepass")),
    }
}

/// The text of a `str` value of at most `chars` characters.
fn short_text(arena: &Arena, node: NodeId, chars: usize) -> Option<&[u8]> {
    match arena.node(node) {
        Node::Str(span) | Node::StrSubclass(span) => {
            let text = arena.bytes(span);
            at_most_chars(text, chars).then_some(text)
        }
        _ => None,
    }
}

/// What a table reads of a JSON array's rows (their first `MAX_TABLE_CELLS`): each row's cells
/// (`("list", cells)`, `("map", (key, cell) pairs)` or `("other",)`), a cell as `("num", value)`
/// for an int or float, `("str", text)` for a string of at most 80 characters, else None.
fn table_rows<'py>(
    py: Python<'py>,
    arena: &Arena,
    rows: &[NodeId],
) -> PyResult<Bound<'py, PyList>> {
    let cell = |node: NodeId| -> PyResult<Bound<'py, PyAny>> {
        let number = match arena.node(node) {
            Node::Int(value) => Some(value as f64),
            Node::BigInt(span) => parse_decimal(Some(arena.bytes(span))),
            Node::Float(value) if value.is_finite() => Some(value),
            _ => None,
        };
        if let Some(number) = number {
            return Ok(("num", number).into_pyobject(py)?.into_any());
        }
        match short_text(arena, node, 80) {
            Some(text) => Ok(("str", py_text(py, text)?).into_pyobject(py)?.into_any()),
            None => Ok(py.None().into_bound(py)),
        }
    };
    let plain = PyList::empty(py);
    for row in rows.iter().take(TAIL_ROWS - 1) {
        let summary = match arena.node(*row) {
            Node::List { links, .. } => {
                let cells = arena.children(links).iter().map(|child| cell(*child));
                (
                    "list",
                    PyTuple::new(py, cells.collect::<PyResult<Vec<_>>>()?)?,
                )
                    .into_pyobject(py)?
                    .into_any()
            }
            Node::Map { .. } => {
                let pairs = arena
                    .entries(*row)
                    .map(|(key, value)| Ok((py_text(py, arena.key_text(key))?, cell(value)?)));
                (
                    "map",
                    PyTuple::new(py, pairs.collect::<PyResult<Vec<_>>>()?)?,
                )
                    .into_pyobject(py)?
                    .into_any()
            }
            _ => ("other",).into_pyobject(py)?.into_any(),
        };
        plain.append(summary)?;
    }
    Ok(plain)
}

/// The corpus as plain Python data (see `collect`).
fn plain<'py>(
    py: Python<'py>,
    corpus: &Corpus,
    labels: &[Option<[Bound<'py, PyAny>; 3]>],
) -> PyResult<Bound<'py, PyTuple>> {
    let arena = &corpus.arena;
    let mut ordinals: HashMap<NodeId, usize> = HashMap::default();
    let mut siblings = |node: Option<NodeId>| -> PyResult<Bound<'py, PyAny>> {
        let Some(node) = node else {
            return Ok(py.None().into_bound(py));
        };
        let next = ordinals.len();
        let ordinal = *ordinals.entry(node).or_insert(next);
        let entries = arena
            .entries(node)
            .map(|(key, value)| {
                let text = short_text(arena, value, TAIL_TEXT_CHARS).map(|text| py_text(py, text));
                Ok((py_text(py, arena.key_text(key))?, text.transpose()?))
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok((ordinal, PyTuple::new(py, entries)?)
            .into_pyobject(py)?
            .into_any())
    };
    let sources = corpus
        .sources
        .iter()
        .map(|source| {
            let labels = source
                .index
                .and_then(|index| labels.get(index))
                .and_then(Option::as_ref);
            let [source_id, kind, name] = match labels {
                Some(labels) => labels.clone(),
                None => {
                    let none = py.None().into_bound(py);
                    [none.clone(), py_text(py, &source.kind)?, none]
                }
            };
            Ok((source.index, source_id, kind, name)
                .into_pyobject(py)?
                .into_any())
        })
        .collect::<PyResult<Vec<_>>>()?;
    let source = |index: usize| {
        sources
            .get(index)
            .cloned()
            .unwrap_or(py.None().into_bound(py))
    };
    let path = |path| -> PyResult<Bound<'py, PyAny>> {
        match corpus.paths.render(path, arena) {
            Some(rendered) => py_text(py, &rendered),
            None => Ok(py.None().into_bound(py)),
        }
    };
    let labels = |path| -> PyResult<Bound<'py, PyList>> {
        let labels = corpus
            .paths
            .labels(path, arena)
            .into_iter()
            .map(|span| py_text(py, arena.bytes(span)))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, labels)
    };
    let fragments = PyList::empty(py);
    for fragment in &corpus.fragments {
        let row = (
            source(fragment.source),
            path(fragment.path)?,
            labels(fragment.path)?,
            py_text(py, arena.bytes(fragment.text))?,
            siblings(fragment.siblings)?,
        );
        fragments.append(row)?;
    }
    let rows = PyList::empty(py);
    for row in &corpus.scalar_rows {
        let literal = match row.literal {
            Literal::Int(value) => ("int", value.to_string().into_pyobject(py)?.into_any()),
            Literal::BigInt(span) => ("int", py_text(py, arena.bytes(span))?),
            Literal::Float(value) => ("float", py_float_repr(value).into_pyobject(py)?.into_any()),
            Literal::Text(span) => ("str", py_text(py, arena.bytes(span))?),
        };
        let currency = row
            .currency
            .map(|code| String::from_utf8_lossy(&code).into_owned());
        let (start, end) = match row.within {
            Some((text, start, end)) => {
                let text = lossy(arena.bytes(text));
                let mut offsets = CharOffsets::new(&text);
                (Some(offsets.of(start)), Some(offsets.of(end)))
            }
            None => (None, None),
        };
        let plain_row = (
            source(row.source),
            path(row.path)?,
            labels(row.path)?,
            literal,
            currency,
            siblings(row.siblings)?,
            start,
            end,
        );
        rows.append(plain_row)?;
    }
    let arrays = PyList::empty(py);
    for array in &corpus.arrays {
        let rows = match arena.node(array.rows) {
            Node::List { links, .. } => arena.children(links),
            _ => &[],
        };
        let plain_array = (
            source(array.source),
            path(array.path)?,
            rows.len().min(TAIL_ROWS),
            table_rows(py, arena, rows)?,
            siblings(array.siblings)?,
        );
        arrays.append(plain_array)?;
    }
    let mut reasons: Vec<&str> = corpus
        .reasons
        .iter()
        .map(|reason| reason.as_str())
        .collect();
    reasons.sort_unstable(); // as the test sorts Python's set
    (
        fragments,
        corpus.scalar_values.clone(),
        rows,
        corpus.has_tool_evidence,
        reasons,
        arrays,
    )
        .into_pyobject(py)
}

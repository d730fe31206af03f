//! The neutral evidence value: a JSON-like tree stored flat, built by the binding (from Python
//! objects) and by `json_text` (from JSON documents), without recursion.
//!
//! Nodes live in one arena; a container's children are a contiguous run of `links` (a mapping's
//! as key, value pairs); all text is one byte buffer in the engine's encoding (`pytext`).

/// A node's position in the arena.
pub type NodeId = u32;

/// A run of bytes of `Arena::text`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub len: u32,
}

/// One value. Which Python types map to which node mirrors the order of `_Walker._value`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    /// An exact `int` that fits in an i64.
    Int(i64),
    /// An exact `int` beyond i64 but within ±10**308: its decimal text.
    BigInt(Span),
    /// An exact `int` of at least 10**308 in magnitude: no float value, skipped by the walk.
    HugeInt,
    /// An exact `float` (non-finite ones are skipped by the walk).
    Float(f64),
    /// A finite number of another type (Decimal, int or float subclasses): its value and `str()`.
    Number {
        value: f64,
        literal: Span,
    },
    /// An exact `str`; as a mapping key, any `str` (a key of another type is `Text`).
    Str(Span),
    /// A value of a `str` subclass, as `str(value)` (the walk reads it one call deeper).
    StrSubclass(Span),
    /// Flat text: `isoformat()` of a date or time, `str()` of any other object; as a mapping key,
    /// the `str()` of a key that is not a `str` (it names no currency).
    Text(Span),
    /// An object whose `str()` raised: read as nothing.
    Opaque,
    /// A value whose reading raised in Python (`float()` of a signaling NaN, a broken
    /// `isoformat()`): the walk that reaches it stops there, as Python's raises out of `collect`.
    Raises,
    /// A sequence; `exact` when its type is `list` (a table's rows must be).
    List {
        links: Span,
        exact: bool,
    },
    /// A mapping (`links` holds key, value pairs); `exact` when its type is `dict`.
    Map {
        links: Span,
        exact: bool,
    },
    /// A container nested deeper than the conversion reads (the walk stops before it).
    Unread {
        map: bool,
        exact: bool,
    },
    /// Content past the conversion's byte budget (the walk is cut before reading it); `exact`
    /// when it is a `list` or `dict` (what a table test of its parent list asks).
    Cut {
        exact: bool,
    },
}

impl Node {
    /// `type(value) in (list, dict)`.
    pub fn is_exact_container(&self) -> bool {
        matches!(
            self,
            Node::List { exact: true, .. }
                | Node::Map { exact: true, .. }
                | Node::Unread { exact: true, .. }
                | Node::Cut { exact: true }
        )
    }
}

/// The arena: nodes, child links and text.
#[derive(Debug, Default)]
pub struct Arena {
    pub nodes: Vec<Node>,
    pub links: Vec<NodeId>,
    pub text: Vec<u8>,
}

/// The arena outgrew its 32-bit offsets (more than 4 GiB of text or 4 G nodes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

impl Arena {
    pub fn node(&self, id: NodeId) -> Node {
        self.nodes.get(id as usize).copied().unwrap_or(Node::Opaque)
    }

    pub fn push(&mut self, node: Node) -> Result<NodeId, TooLarge> {
        let id = NodeId::try_from(self.nodes.len()).map_err(|_| TooLarge)?;
        self.nodes.push(node);
        Ok(id)
    }

    pub fn push_text(&mut self, bytes: &[u8]) -> Result<Span, TooLarge> {
        let start = u32::try_from(self.text.len()).map_err(|_| TooLarge)?;
        let len = u32::try_from(bytes.len()).map_err(|_| TooLarge)?;
        start.checked_add(len).ok_or(TooLarge)?;
        self.text.extend_from_slice(bytes);
        Ok(Span { start, len })
    }

    /// Appends `children` as one run of links (a container's).
    pub fn push_links(&mut self, children: &[NodeId]) -> Result<Span, TooLarge> {
        let start = u32::try_from(self.links.len()).map_err(|_| TooLarge)?;
        let len = u32::try_from(children.len()).map_err(|_| TooLarge)?;
        start.checked_add(len).ok_or(TooLarge)?;
        self.links.extend_from_slice(children);
        Ok(Span { start, len })
    }

    pub fn bytes(&self, span: Span) -> &[u8] {
        let start = span.start as usize;
        self.text
            .get(start..start + span.len as usize)
            .unwrap_or_default()
    }

    pub fn children(&self, links: Span) -> &[NodeId] {
        let start = links.start as usize;
        self.links
            .get(start..start + links.len as usize)
            .unwrap_or_default()
    }

    /// The text of a `Str` or `Text` node (a mapping key).
    pub fn key_text(&self, id: NodeId) -> &[u8] {
        match self.node(id) {
            Node::Str(span) | Node::Text(span) => self.bytes(span),
            _ => &[],
        }
    }

    /// The `(key, value)` pairs of a mapping node (none for any other node).
    pub fn entries(&self, id: NodeId) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        let links = match self.node(id) {
            Node::Map { links, .. } => links,
            _ => Span::default(),
        };
        self.children(links)
            .chunks_exact(2)
            .filter_map(|pair| Some((*pair.first()?, *pair.get(1)?)))
    }
}

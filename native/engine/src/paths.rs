//! JSON paths as parent links (`corpus.py`'s `Path`), built cheaply during the walk and rendered
//! only for citations: `render_path` and `path_labels`.

use crate::pytext::{at_most_chars, char_prefix, is_ascii_identifier, push_json_string};
use crate::value::{Arena, Span};

/// A link's position in `Paths`; `None` is the root (no path).
pub type PathId = u32;

/// One step of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A list position.
    Index(u32),
    /// A mapping key (its text in the arena).
    Text(Span),
    /// An unknown stretch (`$..total`).
    Somewhere,
}

/// A citation names at most this many keys nearest the value, each cut to this many characters.
const RENDERED_KEYS: usize = 16;
const RENDERED_KEY_CHARS: usize = 64;
/// Label words come from the string keys among this many nearest links, of at most this many
/// characters each.
const LABEL_LINKS: usize = 16;
const LABEL_KEY_CHARS: usize = 64;

#[derive(Debug, Default)]
pub struct Paths {
    links: Vec<(Option<PathId>, Key)>,
}

impl Paths {
    /// A new link under `parent` (None past 4 G links, which no byte cap lets a walk reach).
    pub fn push(&mut self, parent: Option<PathId>, key: Key) -> Option<PathId> {
        let id = PathId::try_from(self.links.len()).ok()?;
        self.links.push((parent, key));
        Some(id)
    }

    /// Room for `more` links.
    pub fn reserve(&mut self, more: usize) {
        self.links.reserve(more);
    }

    /// The link `path` names: its parent and its key.
    pub fn link(&self, path: PathId) -> Option<(Option<PathId>, Key)> {
        self.links.get(path as usize).copied()
    }

    /// `render_path`: `$.invoice.total`, `$.items[0]`, `$["INV-2210"]`, `$..total`.
    pub fn render(&self, path: Option<PathId>, arena: &Arena) -> Option<Vec<u8>> {
        self.render_under(path?, &[], arena)
    }

    /// `render_path` of the path `nearest` (keys nearest the value first) under `parent`: a path
    /// not pushed onto `Paths` (a JSON table cell's).
    pub fn render_beneath(
        &self,
        parent: Option<PathId>,
        nearest: &[Key],
        arena: &Arena,
    ) -> Option<Vec<u8>> {
        match parent {
            Some(parent) => self.render_under(parent, nearest, arena),
            None if !nearest.is_empty() => self.render_keys(
                nearest.iter().copied().take(RENDERED_KEYS + 1).collect(),
                nearest.len() > RENDERED_KEYS,
                arena,
            ),
            None => None,
        }
    }

    fn render_under(&self, path: PathId, nearest: &[Key], arena: &Arena) -> Option<Vec<u8>> {
        let mut keys: Vec<Key> = Vec::with_capacity(RENDERED_KEYS + 1);
        let mut pending = nearest.iter();
        let mut link = Some(path);
        let mut cut = false;
        loop {
            if keys.len() == RENDERED_KEYS {
                cut = true;
                break;
            }
            if let Some(key) = pending.next() {
                keys.push(*key);
                continue;
            }
            let Some((parent, key)) = link.and_then(|at| self.link(at)) else {
                break;
            };
            keys.push(key);
            match parent {
                Some(parent) => link = Some(parent),
                None => break,
            }
        }
        self.render_keys(keys, cut, arena)
    }

    /// `keys` nearest first; `cut`: an unknown stretch above them.
    fn render_keys(&self, mut keys: Vec<Key>, cut: bool, arena: &Arena) -> Option<Vec<u8>> {
        keys.truncate(RENDERED_KEYS);
        if cut {
            keys.push(Key::Somewhere);
        }
        // Room for the whole path unless a key needs escapes: it was grown a part at a time.
        let size = keys.iter().map(|key| match key {
            Key::Index(_) => 12,
            Key::Text(span) => (span.len as usize).min(4 * RENDERED_KEY_CHARS) + 8,
            Key::Somewhere => 2,
        });
        let mut out = Vec::with_capacity(1 + size.sum::<usize>());
        out.push(b'$');
        let mut gap = false; // after an unknown stretch a bracket needs its own "." too: $..[3]
                             // Each part is written in place: `[`, `.name` or `["name"]`.
        let bracket = |out: &mut Vec<u8>, gap: bool| {
            if gap {
                out.push(b'.');
            }
            out.push(b'[');
        };
        for key in keys.iter().rev() {
            match key {
                Key::Somewhere => {
                    out.push(b'.');
                    gap = true;
                    continue;
                }
                Key::Index(position) => {
                    bracket(&mut out, gap);
                    out.extend_from_slice(position.to_string().as_bytes());
                    out.push(b']');
                }
                Key::Text(span) => {
                    let text = arena.bytes(*span);
                    if !at_most_chars(text, RENDERED_KEY_CHARS) {
                        let mut cut = text
                            .get(..char_prefix(text, RENDERED_KEY_CHARS))
                            .unwrap_or(text)
                            .to_vec();
                        cut.extend_from_slice("…".as_bytes());
                        bracket(&mut out, gap);
                        push_json_string(&mut out, &cut);
                        out.push(b']');
                    } else if is_ascii_identifier(text) {
                        out.push(b'.');
                        out.extend_from_slice(text);
                    } else {
                        bracket(&mut out, gap);
                        push_json_string(&mut out, text);
                        out.push(b']');
                    }
                }
            }
            gap = false;
        }
        Some(out)
    }

    /// `path_labels`: the string keys among the nearest links, nearest first.
    pub fn labels(&self, path: Option<PathId>, arena: &Arena) -> Vec<Span> {
        self.labels_beneath(path, &[], arena)
    }

    /// `path_labels` of the path `nearest` (keys nearest the value first) under `parent`.
    pub fn labels_beneath(
        &self,
        parent: Option<PathId>,
        nearest: &[Key],
        arena: &Arena,
    ) -> Vec<Span> {
        let mut labels = Vec::new();
        for key in nearest.iter().take(LABEL_LINKS) {
            if let Key::Text(span) = key {
                if at_most_chars(arena.bytes(*span), LABEL_KEY_CHARS) {
                    labels.push(*span);
                }
            }
        }
        let mut link = parent;
        for _ in nearest.len().min(LABEL_LINKS)..LABEL_LINKS {
            let Some((parent, key)) = link.and_then(|at| self.link(at)) else {
                break;
            };
            if let Key::Text(span) = key {
                if at_most_chars(arena.bytes(span), LABEL_KEY_CHARS) {
                    labels.push(span);
                }
            }
            link = parent;
        }
        labels
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(keys: &[&str]) -> String {
        let mut arena = Arena::default();
        let mut paths = Paths::default();
        let mut path = None;
        for key in keys {
            let key = match *key {
                "*" => Key::Somewhere,
                text => match text.parse::<u32>() {
                    Ok(position) => Key::Index(position),
                    Err(_) => Key::Text(arena.push_text(text.as_bytes()).unwrap_or_default()),
                },
            };
            path = paths.push(path, key);
        }
        String::from_utf8(paths.render(path, &arena).unwrap_or_default()).unwrap_or_default()
    }

    #[test]
    fn a_path_beneath_renders_and_labels_as_if_pushed() {
        let mut arena = Arena::default();
        let mut paths = Paths::default();
        for depth in [0_u32, 1, 13, 14, 15, 16, 17, 20] {
            let mut parent = None;
            for at in 0..depth {
                let key = arena
                    .push_text(format!("k{at}").as_bytes())
                    .unwrap_or_default();
                parent = paths.push(parent, Key::Text(key));
            }
            let key = Key::Text(arena.push_text(b"fy2024").unwrap_or_default());
            let nearest = [key, Key::Index(3)];
            let beneath = paths.render_beneath(parent, &nearest, &arena);
            let labels = paths.labels_beneath(parent, &nearest, &arena);
            let row = paths.push(parent, Key::Index(3));
            let pushed = paths.push(row, key);
            assert_eq!(beneath, paths.render(pushed, &arena), "depth {depth}");
            assert_eq!(labels, paths.labels(pushed, &arena), "depth {depth}");
        }
        assert_eq!(paths.render_beneath(None, &[], &arena), None);
    }

    #[test]
    fn renders_like_python() {
        assert_eq!(render(&["invoice", "total"]), "$.invoice.total");
        assert_eq!(render(&["items", "0"]), "$.items[0]");
        assert_eq!(render(&["INV-2210"]), "$[\"INV-2210\"]");
        assert_eq!(render(&["*", "total"]), "$..total");
        assert_eq!(render(&["a", "*", "3"]), "$.a..[3]");
        assert_eq!(render(&["é"]), "$[\"é\"]");
        let long = "k".repeat(65);
        assert_eq!(render(&[&long]), format!("$[\"{}…\"]", "k".repeat(64)));
        let deep: Vec<String> = (0..20).map(|i| format!("k{i}")).collect();
        let deep: Vec<&str> = deep.iter().map(String::as_str).collect();
        assert_eq!(
            render(&deep),
            "$..k4.k5.k6.k7.k8.k9.k10.k11.k12.k13.k14.k15.k16.k17.k18.k19"
        );
    }
}

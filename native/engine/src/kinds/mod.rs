//! Atom kinds as slices: one module per kind family, each implementing `Kind` (its grammar
//! branches and how a match becomes an atom), and one registry table with their priority.
//!
//! The scan tries, at each candidate position, the families of branches in grammar order (what
//! follows a mark, hex runs, separated digits, worded dates, ...); within a family, the branches
//! of higher-priority kinds first. A branch that `yields` is tried after the other kinds' branches
//! of its family (a dotted version gives way to a dotted date: "1.2.2025").

pub mod date;
pub mod identifier;
pub mod quantity;
pub mod time;

use std::sync::OnceLock;

use crate::atoms::Atom;
use crate::extract::scan::{Cx, Scan};
use crate::vocabulary::AtomKind;

/// Where in the grammar a branch is tried (each family has its own guard in the scan).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// A digit after "-", "#", "(" or "+" (tickets, hashtags, phone numbers).
    AfterMark,
    /// A digit followed by six hex characters (UUIDs, hashes).
    Hex,
    /// Digits joined by separators (phones, IPs, numeric dates, year ranges, versions).
    Separated,
    /// A digit followed by a word (day-month dates, relative dates).
    Worded,
    /// A digit after a lower-case month name ("may 30").
    LowercaseMonth,
    /// A digit glued to a letter ("KX750", "a3f5c9d", "v1.2.3").
    AfterLetter,
    /// A figure: money, percent, number (or a bare year).
    Figure,
    /// A letter that starts a word ("March 2025", "yesterday").
    LetterStart,
    /// A digit with a clock ahead: ":MM", ".MM" or am/pm ("19:30", "7.30pm", "7 pm").
    Clock,
    /// A digit that starts a run of capitals and digits ("1Z999AA10123456784").
    Alnum,
    /// A digit after two capitals and a space ("flight UA 1234").
    AfterCarrier,
}

/// A branch's match: its span (bytes) and branch-specific marks (group boundaries, flags).
#[derive(Clone, Copy, Debug, Default)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    pub marks: [usize; 6],
}

impl Hit {
    pub fn new(start: usize, end: usize) -> Hit {
        Hit {
            start,
            end,
            marks: [0; 6],
        }
    }

    pub fn with(start: usize, end: usize, marks: &[usize]) -> Hit {
        let mut hit = Hit::new(start, end);
        for (slot, mark) in hit.marks.iter_mut().zip(marks) {
            *slot = *mark;
        }
        hit
    }
}

/// What a match reads as: nothing (the scan still resumes after the match), or atoms.
pub enum Found {
    Nothing,
    One(Atom),
    Two(Atom, Atom),
}

impl From<Option<Atom>> for Found {
    fn from(atom: Option<Atom>) -> Found {
        atom.map_or(Found::Nothing, Found::One)
    }
}

/// One alternative of the grammar: where it is tried, how it matches at a candidate position,
/// and how its match becomes atoms.
pub struct Branch {
    pub name: &'static str,
    pub family: Family,
    pub yields: bool,
    pub attempt: fn(&Cx<'_>, usize) -> Option<Hit>,
    pub read: fn(&Scan<'_>, &Hit) -> Found,
}

/// An atom kind family: its grammar branches, in the order it tries them.
pub trait Kind: Sync {
    fn branches(&self) -> &'static [Branch];
}

/// One registered kind: the atom kinds it produces and its priority (0 first).
pub struct Entry {
    pub priority: u8,
    pub kinds: &'static [AtomKind],
    pub kind: &'static dyn Kind,
}

/// Every kind, with its priority: identifier > date > money/percent/number > time (a time's
/// family is its own: its priority orders nothing yet).
pub static REGISTRY: [Entry; 4] = [
    Entry {
        priority: 0,
        kinds: &[AtomKind::Identifier],
        kind: &identifier::Identifiers,
    },
    Entry {
        priority: 1,
        kinds: &[AtomKind::Date],
        kind: &date::Dates,
    },
    Entry {
        priority: 2,
        kinds: &[AtomKind::Money, AtomKind::Percent, AtomKind::Number],
        kind: &quantity::Quantities,
    },
    Entry {
        priority: 3,
        kinds: &[AtomKind::Time],
        kind: &time::Times,
    },
];

const FAMILIES: [Family; 11] = [
    Family::AfterMark,
    Family::Hex,
    Family::Separated,
    Family::Worded,
    Family::LowercaseMonth,
    Family::AfterLetter,
    Family::Figure,
    Family::LetterStart,
    Family::Clock,
    Family::Alnum,
    Family::AfterCarrier,
];

/// A text of four bytes as one big-endian number, which orders as the text does (byte by byte):
/// a year's bounds compare without a `memcmp` call each.
pub fn four_bytes(text: &str) -> Option<u32> {
    text.as_bytes().try_into().ok().map(u32::from_be_bytes)
}

/// `four_bytes` of a literal.
pub const fn four(text: &[u8; 4]) -> u32 {
    u32::from_be_bytes(*text)
}

/// `"1900" <= text <= "2099"` for a text of four bytes.
pub fn in_years(text: &str) -> bool {
    four_bytes(text).is_some_and(|key| (four(b"1900")..=four(b"2099")).contains(&key))
}

/// Every family's branches, in the order the scan tries them: built once, fetched once per
/// scanned range (not once per family at every candidate character).
pub struct BranchTable(Vec<(Family, Vec<&'static Branch>)>);

impl BranchTable {
    /// The branches of `family`, in the order the scan tries them.
    pub fn of(&self, family: Family) -> &[&'static Branch] {
        // FAMILIES lists every family in declaration order: `family as usize` is its index.
        self.0
            .get(family as usize)
            .map_or(&[], |(_, branches)| branches.as_slice())
    }
}

pub fn branch_table() -> &'static BranchTable {
    static ORDERED: OnceLock<BranchTable> = OnceLock::new();
    ORDERED.get_or_init(|| {
        BranchTable(
            FAMILIES
                .iter()
                .map(|family| {
                    let mut branches: Vec<(bool, u8, usize, &'static Branch)> = REGISTRY
                        .iter()
                        .flat_map(|entry| {
                            entry
                                .kind
                                .branches()
                                .iter()
                                .enumerate()
                                .map(|(index, branch)| {
                                    (branch.yields, entry.priority, index, branch)
                                })
                        })
                        .filter(|(_, _, _, branch)| branch.family == *family)
                        .collect();
                    branches
                        .sort_by_key(|(yields, priority, index, _)| (*yields, *priority, *index));
                    (
                        *family,
                        branches.into_iter().map(|(_, _, _, b)| b).collect(),
                    )
                })
                .collect(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{branch_table, four, four_bytes, in_years, REGISTRY};
    use crate::vocabulary::AtomKind;

    #[test]
    fn four_byte_texts_order_as_the_texts_do() {
        let texts = [
            "0999", "1000", "1899", "1900", "19a0", "1a00", "2099", "20:9", "2100", "9999",
        ];
        for a in texts {
            for b in texts {
                let (ka, kb) = (four_bytes(a), four_bytes(b));
                assert_eq!(ka.cmp(&kb), a.cmp(b), "{a} {b}");
            }
            assert_eq!(in_years(a), ("1900"..="2099").contains(&a), "{a}");
        }
        assert_eq!(four_bytes("2099"), Some(four(b"2099")));
        assert_eq!((four_bytes("209"), in_years("19000")), (None, false));
    }

    #[test]
    fn every_atom_kind_has_one_module_and_every_branch_one_place() {
        for kind in AtomKind::ALL {
            let owners = REGISTRY
                .iter()
                .filter(|entry| entry.kinds.contains(kind))
                .count();
            assert_eq!(owners, 1, "{kind:?}");
        }
        let mut names: Vec<&str> = REGISTRY
            .iter()
            .flat_map(|entry| entry.kind.branches().iter().map(|branch| branch.name))
            .collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count);
        let placed: usize = super::FAMILIES
            .iter()
            .map(|family| branch_table().of(*family).len())
            .sum();
        assert_eq!(placed, count);
    }

    #[test]
    fn priority_orders_a_family_and_a_yielding_branch_goes_last() {
        let separated: Vec<&str> = branch_table()
            .of(super::Family::Separated)
            .iter()
            .map(|b| b.name)
            .collect();
        assert_eq!(
            separated,
            ["phone", "ip", "iso", "years", "isomonth", "numdate", "version"]
        );
        let after_letter: Vec<&str> = branch_table()
            .of(super::Family::AfterLetter)
            .iter()
            .map(|b| b.name)
            .collect();
        assert_eq!(
            after_letter,
            ["code", "hexmid", "vversion", "alnum", "glued"]
        );
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::atoms::{Atom, AtomValue};
    use crate::extract::calendar::Day;
    use crate::extract::extract_atoms;
    use crate::vocabulary::AtomKind;

    /// The atoms of `text` in `locale` (all kinds, digit floor 4, anchored on 2025-04-15).
    pub fn atoms(text: &str, locale: &str) -> Vec<Atom> {
        let kinds: Vec<&str> = AtomKind::ALL.iter().map(|k| k.as_str()).collect();
        let anchor = Some(Day {
            year: 2025,
            month: 4,
            day: 15,
        });
        extract_atoms(text, locale, 4, &kinds, anchor).unwrap_or_default()
    }

    /// (kind, written text, normalised form or value) of each atom of `text`, in en-US.
    pub fn read(text: &str) -> Vec<(&'static str, String, String)> {
        atoms(text, "en-US")
            .iter()
            .map(|atom| {
                let written = text
                    .get(atom.start..atom.end)
                    .unwrap_or_default()
                    .to_owned();
                let value = match &atom.value {
                    AtomValue::Quantity(q) => format!("{} {:?}", q.value, q.currency.or(q.unit)),
                    AtomValue::Date(d) => format!("{:?}", d.readings),
                    AtomValue::Identifier(i) => format!("{} {}", i.shape, i.normalized),
                    AtomValue::Time(t) => t.normalized(),
                };
                (atom.kind.as_str(), written, value)
            })
            .collect()
    }
}

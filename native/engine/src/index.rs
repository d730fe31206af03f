//! `EvidenceIndex` of `scoring/index.py`: the evidence's atoms and raw scalars, indexed by kind
//! and value. Built once per call; every structure is built on first use where Python builds it
//! (an answer without dates never pays for a date table), and every lookup charges the caller's
//! work budget as Python's does. The evidence's tables (`tables()`) are `table_book.rs`'s.

use std::sync::{Arc, OnceLock};

use crate::atoms::{Atom, AtomValue, Quantity};
use crate::budget::{BudgetSpent, WorkBudget, PROBE};
use crate::corpus::{Corpus, Literal, ScalarRow};
use crate::date_index::{DateEntry, DateIndex, RawYear, Reading};
use crate::digits::VariantWindows;
use crate::fxhash::{FxHashMap as HashMap, FxHashSet as HashSet};
use crate::hit::{Hit, Origin};
use crate::identifier_index::IdentifierIndex;
use crate::numeric_group::NumericGroup;
use crate::offsets::CharOffsets;
use crate::paths::Key;
use crate::pytext::{len_chars, lossy};
use crate::pyunicode;
use crate::table_book::TableBook;
use crate::time_index::{TimeIndex, TimeKey};
use crate::units;
use crate::vocabulary::AtomKind;

/// Fragments are scanned in one pass over their concatenation; this separator matches nothing
/// and stops every pattern, so no atom spans two fragments.
const SEPARATOR: &str = "\n\x1e\n";
/// The prefix of the groups of values read in another unit (`unit_group`).
pub const UNIT_GROUP: &str = "unit:";
/// ISO 4217 currencies whose minor unit is not a hundredth (none: JPY, KRW; a thousandth: KWD).
const NOT_HUNDREDTHS: [&[u8; 3]; 24] = [
    b"BIF", b"CLP", b"DJF", b"GNF", b"ISK", b"JPY", b"KMF", b"KRW", b"PYG", b"RWF", b"UGX", b"UYI",
    b"VND", b"VUV", b"XAF", b"XOF", b"XPF", b"BHD", b"IQD", b"JOD", b"KWD", b"LYD", b"OMR", b"TND",
];
const NUMERIC_KINDS: [AtomKind; 3] = [AtomKind::Money, AtomKind::Percent, AtomKind::Number];

/// The group of evidence values read in `unit` (another unit of its dimension), if it converts.
pub fn unit_group(unit: Option<&str>) -> Option<String> {
    let unit = unit?;
    units::dimension(unit).map(|_| format!("{UNIT_GROUP}{unit}"))
}

/// Evidence atom kinds and identifier shapes (`None`: every shape) that lookups can return.
#[derive(Debug, Clone)]
pub struct EvidenceNeeds {
    pub kinds: Vec<AtomKind>,
    pub shapes: Option<HashSet<String>>,
}

impl EvidenceNeeds {
    pub fn everything() -> Self {
        EvidenceNeeds {
            kinds: AtomKind::ALL.to_vec(),
            shapes: None,
        }
    }
}

/// Why `group` gives no group: a `unit:` group the budget cannot pay for, or a name Python's
/// index has no group for (a `KeyError` there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupError {
    BudgetSpent,
    Unknown,
}

impl From<BudgetSpent> for GroupError {
    fn from(_: BudgetSpent) -> Self {
        GroupError::BudgetSpent
    }
}

/// What a group value stands for: a hit, the figure atom at a position of the group's
/// `figures`, or the corpus scalar at a position (hits of the last two are made only when a query
/// returns them, so number-dense evidence costs no allocation per value).
#[derive(Debug, Clone)]
enum Entry {
    Hit(Arc<Hit>),
    Figure(usize),
    Scalar(usize),
}

/// A money, percent or number atom of one fragment. Its hit is made when a lookup first returns
/// it and kept, so its label words are read once however often it is found.
#[derive(Debug)]
struct Figure {
    place: Place,
    quantity: Quantity,
    hit: OnceLock<Arc<Hit>>,
}

/// `Origin::Fragment`'s fields in 32 bits: number-dense evidence holds one per figure. Evidence
/// is read in far less than 4 GiB; a figure placed past that is not indexed.
#[derive(Debug, Clone, Copy)]
struct Place {
    fragment: u32,
    start: u32,
    end: u32,
    chars: (u32, u32),
}

impl Place {
    fn of(origin: Origin) -> Option<Place> {
        let Origin::Fragment {
            fragment,
            start,
            end,
            chars,
        } = origin
        else {
            return None;
        };
        let narrow = |at: usize| u32::try_from(at).ok();
        Some(Place {
            fragment: narrow(fragment)?,
            start: narrow(start)?,
            end: narrow(end)?,
            chars: (narrow(chars.0)?, narrow(chars.1)?),
        })
    }

    fn origin(self) -> Origin {
        Origin::Fragment {
            fragment: self.fragment as usize,
            start: self.start as usize,
            end: self.end as usize,
            chars: (self.chars.0 as usize, self.chars.1 as usize),
        }
    }
}

/// The figure atoms of one kind, in extraction order, shared by the index and the kind's group.
#[derive(Debug)]
struct Figures {
    kind: Arc<str>,
    atoms: Vec<Figure>,
}

impl Figures {
    fn of(kind: AtomKind) -> Self {
        Figures {
            kind: Arc::from(kind.as_str()),
            atoms: Vec::new(),
        }
    }

    fn hit_of<'a>(&self, figure: &'a Figure) -> &'a Arc<Hit> {
        figure.hit.get_or_init(|| {
            Hit::new(
                Arc::clone(&self.kind),
                figure.place.origin(),
                Some(Arc::new(AtomValue::Quantity(figure.quantity.clone()))),
                figure.quantity.value,
                figure.quantity.tolerance,
            )
        })
    }

    fn hit(&self, position: usize) -> Option<Arc<Hit>> {
        Some(Arc::clone(self.hit_of(self.atoms.get(position)?)))
    }
}

/// The hits of one kind's figure atoms, made as they are read.
pub struct FigureHits<'a>(Option<&'a Figures>);

impl<'a> FigureHits<'a> {
    pub fn iter(&self) -> impl Iterator<Item = &'a Arc<Hit>> + 'a {
        let figures = self.0;
        figures
            .into_iter()
            .flat_map(|figures| figures.atoms.iter().map(|figure| figures.hit_of(figure)))
    }
}

/// One group's values sorted for range queries (`_NumericGroup`).
#[derive(Debug)]
pub struct Group {
    name: Arc<str>,
    sorted: NumericGroup,
    entries: Vec<Entry>,
    /// What `Entry::Figure` positions point into (a `money`, `percent` or `number` group's).
    figures: Option<Arc<Figures>>,
}

impl Group {
    fn new(name: &str, values: &[f64], entries: Vec<Entry>) -> Group {
        Group {
            name: Arc::from(name),
            sorted: NumericGroup::new(values),
            entries,
            figures: None,
        }
    }

    /// The values in ascending order.
    pub fn values(&self) -> &[f64] {
        self.sorted.values()
    }

    /// The hit at sorted position `position` (Python's `_hit`, whose charge the queries make).
    fn hit(&self, position: usize) -> Option<Arc<Hit>> {
        let entry = self.entries.get(*self.sorted.order.get(position)?)?;
        Some(match entry {
            Entry::Hit(hit) => Arc::clone(hit),
            Entry::Figure(at) => self.figures.as_ref()?.hit(*at)?,
            Entry::Scalar(scalar) => Hit::new(
                Arc::clone(&self.name),
                Origin::Scalar(*scalar),
                None,
                *self.sorted.values().get(position)?,
                0.0,
            ),
        })
    }

    /// Hits in `[low, high]`, `PER_RANGE` at most, read lazily.
    pub fn within<'a>(
        &'a self,
        low: f64,
        high: f64,
        budget: &'a mut WorkBudget,
    ) -> impl Iterator<Item = Arc<Hit>> + 'a {
        self.sorted
            .within(low, high, budget)
            .filter_map(|position| self.hit(position))
    }

    /// Hits inside the digit-variant windows, in window order, read lazily.
    pub fn in_windows<'a>(
        &'a self,
        windows: &'a VariantWindows,
        negative: bool,
        budget: &'a mut WorkBudget,
    ) -> impl Iterator<Item = Arc<Hit>> + 'a {
        self.sorted
            .in_windows(windows, negative, budget)
            .filter_map(|position| self.hit(position))
    }

    pub fn count(&self, low: f64, high: f64) -> usize {
        self.sorted.count(low, high)
    }

    /// Up to `limit` hits in `[low, high]`, nearest to `target` first.
    pub fn nearest(
        &self,
        target: f64,
        low: f64,
        high: f64,
        limit: usize,
        budget: &mut WorkBudget,
    ) -> Vec<Arc<Hit>> {
        self.sorted
            .nearest(target, low, high, limit, budget)
            .into_iter()
            .filter_map(|position| self.hit(position))
            .collect()
    }
}

/// A date atom of a fragment: where it is, its value.
type DateAtom = (Origin, Arc<AtomValue>);

/// (position, unit) of the raw scalars whose key names a unit, by dimension.
type UnitRows = HashMap<Option<&'static str>, Vec<(usize, &'static str)>>;

/// A scalar's last path key (a list position for a list item).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum LastKey {
    Text(Vec<u8>),
    Index(u32),
}

pub struct EvidenceIndex {
    corpus: Corpus,
    /// Extracted atoms of `money`, `percent`, `number`, in extraction order.
    figures: [Arc<Figures>; 3],
    date_atoms: Vec<DateAtom>,
    identifier_hits: Vec<Arc<Hit>>,
    /// Times of day: time atoms, and the clocks of ISO timestamps read as dates.
    time_hits: Vec<Arc<Hit>>,
    groups: HashMap<String, Group>,
    dates: Option<DateIndex>,
    identifiers: Option<IdentifierIndex>,
    times: Option<TimeIndex>,
    units_by_dimension: Option<UnitRows>,
    last_keys: Option<HashSet<LastKey>>,
    tables: Option<TableBook>,
}

fn numeric_slot(kind: AtomKind) -> Option<usize> {
    NUMERIC_KINDS.iter().position(|numeric| *numeric == kind)
}

/// A date atom's readings (none for another atom).
fn date_readings(value: &AtomValue) -> &[crate::atoms::Reading] {
    match value {
        AtomValue::Date(date) => &date.readings,
        _ => &[],
    }
}

/// One hit of an atom `value` of kind `name` per fragment its text is found in (`origin` of
/// each).
fn hits_at<'a>(
    name: &'a Arc<str>,
    value: &'a Arc<AtomValue>,
    fragments: &'a [usize],
    origin: impl Fn(usize) -> Origin + 'a,
) -> impl Iterator<Item = Arc<Hit>> + 'a {
    fragments.iter().map(move |fragment| {
        Hit::new(
            Arc::clone(name),
            origin(*fragment),
            Some(Arc::clone(value)),
            0.0,
            0.0,
        )
    })
}

impl EvidenceIndex {
    /// Extracts the corpus's fragments with `extract` (the caller's extraction settings) and
    /// indexes the atoms `needs` names; the others are extracted (they still shadow overlapping
    /// figures) but not indexed.
    pub fn new(
        corpus: Corpus,
        extract: impl FnOnce(&str) -> Vec<Atom>,
        needs: &EvidenceNeeds,
    ) -> Self {
        let mut index = EvidenceIndex {
            corpus,
            figures: NUMERIC_KINDS.map(|kind| Arc::new(Figures::of(kind))),
            date_atoms: Vec::new(),
            identifier_hits: Vec::new(),
            time_hits: Vec::new(),
            groups: HashMap::default(),
            dates: None,
            identifiers: None,
            times: None,
            units_by_dimension: None,
            last_keys: None,
            tables: None,
        };
        index.extract_all(extract, needs);
        index
    }

    pub fn corpus(&self) -> &Corpus {
        &self.corpus
    }

    /// The evidence's tables, made on first use (an answer whose figures all match directly
    /// never reads them; making the book charges nothing, its reads do), with the corpus its
    /// lookups read.
    pub fn tables(&mut self) -> (&mut TableBook, &Corpus) {
        (self.tables.get_or_insert_with(TableBook::new), &self.corpus)
    }

    /// `_extract_all`: one extraction over the distinct fragment texts joined; each atom is
    /// indexed once per fragment holding that text.
    fn extract_all(&mut self, extract: impl FnOnce(&str) -> Vec<Atom>, needs: &EvidenceNeeds) {
        let arena = &self.corpus.arena;
        let fragments = &self.corpus.fragments;
        let mut texts: Vec<&[u8]> = Vec::with_capacity(fragments.len());
        let mut occurrences: HashMap<&[u8], usize> =
            HashMap::with_capacity_and_hasher(fragments.len(), Default::default());
        // Each fragment's text; the fragments of a text then become one run of `holding` (a list
        // per text was an allocation per text).
        let mut slots = Vec::with_capacity(fragments.len());
        for (position, fragment) in fragments.iter().enumerate() {
            let text = arena.bytes(fragment.text);
            if text.is_empty() {
                continue;
            }
            let slot = *occurrences.entry(text).or_insert_with(|| {
                texts.push(text);
                texts.len() - 1
            });
            slots.push((slot, position));
        }
        // `runs[slot]..runs[slot + 1]`: where the fragments holding text `slot` are in `holding`.
        let mut runs = vec![0; texts.len() + 1];
        for (slot, _) in &slots {
            if let Some(count) = runs.get_mut(slot + 1) {
                *count += 1;
            }
        }
        let mut total = 0;
        for run in &mut runs {
            total += *run;
            *run = total;
        }
        let mut next = runs.clone();
        let mut holding = vec![0; slots.len()];
        for (slot, position) in slots {
            if let Some(at) = next.get_mut(slot) {
                if let Some(held) = holding.get_mut(*at) {
                    *held = position;
                }
                *at += 1;
            }
        }
        let mut starts = Vec::with_capacity(texts.len());
        let mut char_starts = Vec::with_capacity(texts.len());
        let separators = SEPARATOR.len() * texts.len().saturating_sub(1);
        let size = texts.iter().map(|text| text.len()).sum::<usize>() + separators;
        let mut joined: Vec<u8> = Vec::with_capacity(size);
        let mut chars = 0;
        for text in &texts {
            if !starts.is_empty() {
                joined.extend_from_slice(SEPARATOR.as_bytes());
                chars += SEPARATOR.len();
            }
            starts.push(joined.len());
            char_starts.push(chars);
            joined.extend_from_slice(text);
            chars += len_chars(text);
        }
        // A lone surrogate reads as U+FFFD, the same bytes long: offsets stay those of the text.
        let joined = lossy(&joined);
        let atoms = extract(&joined);
        // Atoms come sorted and apart: their offsets in code points cost one pass in all.
        let mut offsets = CharOffsets::new(&joined);
        let times_needed = needs.kinds.contains(&AtomKind::Time);
        let mut figures = NUMERIC_KINDS.map(|kind| {
            // Sized up front: number-dense evidence is not copied to grow.
            let mut figures = Figures::of(kind);
            let wanted = needs.kinds.contains(&kind);
            let count = atoms.iter().filter(|atom| wanted && atom.kind == kind);
            figures.atoms.reserve_exact(count.count());
            figures
        });
        let time: Arc<str> = Arc::from(AtomKind::Time.as_str());
        let identifier: Arc<str> = Arc::from(AtomKind::Identifier.as_str());
        for atom in atoms {
            // An ISO timestamp is a date atom; its clock is a time of the evidence too.
            let iso_clock = match &atom.value {
                AtomValue::Date(_) if times_needed => joined
                    .get(atom.start..atom.end)
                    .and_then(crate::kinds::time::iso_clock),
                _ => None,
            };
            if !needs.kinds.contains(&atom.kind) && iso_clock.is_none() {
                continue;
            }
            if let (Some(shapes), AtomValue::Identifier(identifier)) = (&needs.shapes, &atom.value)
            {
                if !shapes.contains(identifier.shape) {
                    continue;
                }
            }
            let Some(slot) = starts
                .partition_point(|at| *at <= atom.start)
                .checked_sub(1)
            else {
                continue;
            };
            let run = runs.get(slot).zip(runs.get(slot + 1));
            let fragments = run.and_then(|(start, end)| holding.get(*start..*end));
            let (Some(text_start), Some(char_start), Some(text), Some(fragments)) = (
                starts.get(slot),
                char_starts.get(slot),
                texts.get(slot),
                fragments,
            ) else {
                continue;
            };
            if atom.end > text_start + text.len() {
                continue;
            }
            let (start, end) = (atom.start - text_start, atom.end - text_start);
            let chars = (
                offsets.of(atom.start).saturating_sub(*char_start),
                offsets.of(atom.end).saturating_sub(*char_start),
            );
            let kind = atom.kind;
            let origin = |fragment: usize| Origin::Fragment {
                fragment,
                start,
                end,
                chars,
            };
            if let Some(clock) = iso_clock {
                let value = Arc::new(AtomValue::Time(clock));
                self.time_hits
                    .extend(hits_at(&time, &value, fragments, origin));
                if !needs.kinds.contains(&kind) {
                    continue;
                }
            }
            match atom.value {
                AtomValue::Quantity(quantity) => {
                    let Some(kind_figures) =
                        numeric_slot(kind).and_then(|slot| figures.get_mut(slot))
                    else {
                        continue;
                    };
                    let figure = |at: &usize, quantity| {
                        Some(Figure {
                            place: Place::of(origin(*at))?,
                            quantity,
                            hit: OnceLock::new(),
                        })
                    };
                    if let Some((last, others)) = fragments.split_last() {
                        let copies = others.iter().map(|at| figure(at, quantity.clone()));
                        kind_figures.atoms.extend(copies.flatten());
                        kind_figures.atoms.extend(figure(last, quantity));
                    }
                }
                AtomValue::Date(date) => {
                    let value = Arc::new(AtomValue::Date(date));
                    self.date_atoms.extend(
                        fragments
                            .iter()
                            .map(|fragment| (origin(*fragment), Arc::clone(&value))),
                    )
                }
                value @ AtomValue::Identifier(_) => self.identifier_hits.extend(hits_at(
                    &identifier,
                    &Arc::new(value),
                    fragments,
                    origin,
                )),
                value @ AtomValue::Time(_) => {
                    self.time_hits
                        .extend(hits_at(&time, &Arc::new(value), fragments, origin))
                }
            }
        }
        self.figures = figures.map(Arc::new);
    }

    /// The hits of the evidence atoms of `kind` (`money`, `percent`, `number`) in extraction
    /// order.
    pub fn numeric_hits(&self, kind: AtomKind) -> FigureHits<'_> {
        FigureHits(self.figures(kind).map(Arc::as_ref))
    }

    /// The evidence atoms of `kind` (`money`, `percent`, `number`) in extraction order.
    fn figures(&self, kind: AtomKind) -> Option<&Arc<Figures>> {
        numeric_slot(kind).and_then(|slot| self.figures.get(slot))
    }

    /// The values of one group, built on first use; a `unit:` group is paid for up front and
    /// refused when the budget cannot pay (nothing is kept then, as Python raises).
    ///
    /// `money`/`percent`/`number`: extracted atoms. `raw`: JSON scalars as they are. `fraction`:
    /// raw scalars in [-1, 1] times 100. `minor`: raw integers counting minor units, divided by
    /// 100. `scaled`: raw scalars under a key naming a magnitude, at that magnitude. `unit:<u>`:
    /// values in another unit of `u`'s dimension, read in `u`.
    pub fn group(&mut self, name: &str, budget: &mut WorkBudget) -> Result<&Group, GroupError> {
        self.group_and_corpus(name, budget).map(|(group, _)| group)
    }

    /// `group`, with the corpus its hits are read off (their text, currency, label words).
    pub fn group_and_corpus(
        &mut self,
        name: &str,
        budget: &mut WorkBudget,
    ) -> Result<(&Group, &Corpus), GroupError> {
        if !self.groups.contains_key(name) {
            let built = self.build_group(name, budget)?;
            self.groups.insert(name.to_owned(), built);
        }
        let group = self.groups.get(name).ok_or(GroupError::Unknown)?;
        Ok((group, &self.corpus))
    }

    fn build_group(&mut self, name: &str, budget: &mut WorkBudget) -> Result<Group, GroupError> {
        let values = &self.corpus.scalar_values;
        let scalars = |positions: &[usize]| positions.iter().map(|at| Entry::Scalar(*at)).collect();
        Ok(match name {
            "raw" => Group::new(name, values, (0..values.len()).map(Entry::Scalar).collect()),
            "fraction" => {
                let fractions: Vec<usize> = (0..values.len())
                    .filter(|at| values.get(*at).is_some_and(|v| (-1.0..=1.0).contains(v)))
                    .collect();
                let read: Vec<f64> = fractions
                    .iter()
                    .filter_map(|at| values.get(*at).map(|v| v * 100.0))
                    .collect();
                Group::new(name, &read, scalars(&fractions))
            }
            "minor" => {
                let minor = self.minor_units();
                let values = &self.corpus.scalar_values;
                let read: Vec<f64> = minor
                    .iter()
                    .filter_map(|at| values.get(*at).map(|v| v / 100.0))
                    .collect();
                Group::new(name, &read, scalars(&minor))
            }
            "scaled" => {
                let scaled = self.keyed_rows(units::key_magnitude);
                let values = &self.corpus.scalar_values;
                // `10.0 ** power` is C's `pow`, as `powf` is.
                let read: Vec<f64> = scaled
                    .iter()
                    .filter_map(|(at, power)| {
                        values.get(*at).map(|v| v * 10f64.powf(f64::from(*power)))
                    })
                    .collect();
                let positions: Vec<usize> = scaled.iter().map(|(at, _)| *at).collect();
                Group::new(name, &read, scalars(&positions))
            }
            _ => match name.strip_prefix(UNIT_GROUP) {
                Some(target) => self.in_unit(name, target, budget)?,
                None => {
                    let kind = AtomKind::parse(name).ok_or(GroupError::Unknown)?;
                    let figures = self.figures(kind).ok_or(GroupError::Unknown)?;
                    let read: Vec<f64> = figures.atoms.iter().map(|f| f.quantity.value).collect();
                    let mut group =
                        Group::new(name, &read, (0..read.len()).map(Entry::Figure).collect());
                    group.figures = Some(Arc::clone(figures));
                    group
                }
            },
        })
    }

    /// The groups among `names` that hold any value.
    pub fn nonempty(
        &mut self,
        names: &[&str],
        budget: &mut WorkBudget,
    ) -> Result<Vec<String>, GroupError> {
        let mut found = Vec::new();
        for name in names {
            if !self.group(name, budget)?.values().is_empty() {
                found.push((*name).to_owned());
            }
        }
        Ok(found)
    }

    /// The distinct last path keys of the raw scalars, read once.
    fn last_keys(&mut self) -> &HashSet<LastKey> {
        let corpus = &self.corpus;
        self.last_keys.get_or_insert_with(|| {
            // Distinct keys found by borrowed text first: each is copied once, not once per row.
            let mut texts: HashSet<&[u8]> = HashSet::default();
            let mut indices: HashSet<u32> = HashSet::default();
            // Records repeat their keys: a text is hashed only when it is not the one last seen
            // in its slot of `recent` (picked by its length and ends).
            let mut recent: [Option<&[u8]>; 64] = [None; 64];
            for row in &corpus.scalar_rows {
                match row.path.and_then(|path| corpus.paths.link(path)) {
                    Some((_, Key::Text(span))) => {
                        let text = corpus.arena.bytes(span);
                        let slot = &mut recent[recent_slot(text)];
                        if *slot != Some(text) {
                            texts.insert(text);
                            *slot = Some(text);
                        }
                    }
                    Some((_, Key::Index(at))) => {
                        indices.insert(at);
                    }
                    Some((_, Key::Somewhere)) | None => {}
                }
            }
            texts
                .into_iter()
                .map(|text| LastKey::Text(text.to_vec()))
                .chain(indices.into_iter().map(LastKey::Index))
                .collect()
        })
    }

    /// Positions of raw integers that may count minor units: under a key naming them
    /// (`"amount_cents": 124350`), or in a record with a currency of hundredths.
    fn minor_units(&mut self) -> Vec<usize> {
        let minor_keys: HashSet<LastKey> = self
            .last_keys()
            .iter()
            .filter(|key| match key {
                LastKey::Text(text) => {
                    let lowered = pyunicode::lower(&lossy(text));
                    lowered.contains("cent") || lowered.contains("minor")
                }
                LastKey::Index(_) => false,
            })
            .cloned()
            .collect();
        let corpus = &self.corpus;
        let hundredths = corpus.scalar_rows.iter().any(|row| {
            row.currency
                .is_some_and(|code| !NOT_HUNDREDTHS.contains(&&code))
        });
        if minor_keys.is_empty() && !hundredths {
            return Vec::new();
        }
        let last_key = |row: &ScalarRow| match corpus.paths.link(row.path?)?.1 {
            Key::Text(span) => Some(LastKey::Text(corpus.arena.bytes(span).to_vec())),
            Key::Index(at) => Some(LastKey::Index(at)),
            Key::Somewhere => None,
        };
        corpus
            .scalar_rows
            .iter()
            .zip(&corpus.scalar_values)
            .enumerate()
            .filter(|(_, (row, value))| {
                value.fract() == 0.0
                    && ((!minor_keys.is_empty()
                        && last_key(row).is_some_and(|key| minor_keys.contains(&key)))
                        || in_minor_units(row))
            })
            .map(|(position, _)| position)
            .collect()
    }

    /// (position, what `read` finds in its nearest key) of the raw scalars whose key says
    /// something; each distinct key is read once, and the rows are walked only when some key
    /// can say something.
    fn keyed_rows<T: Copy>(&mut self, read: impl Fn(&str) -> Option<T>) -> Vec<(usize, T)> {
        let keys = self.last_keys();
        let mut said_by_key: HashMap<Vec<u8>, Option<T>> = HashMap::default();
        for key in keys {
            if let LastKey::Text(text) = key {
                said_by_key.insert(text.clone(), read(&lossy(text)));
            }
        }
        if said_by_key.len() == keys.len() && said_by_key.values().all(Option::is_none) {
            return Vec::new(); // no list items (whose key is further up) and no key that says anything
        }
        let corpus = &self.corpus;
        let mut found = Vec::new();
        for (position, row) in corpus.scalar_rows.iter().enumerate() {
            let Some(label) = corpus
                .paths
                .labels(row.path, &corpus.arena)
                .first()
                .copied()
            else {
                continue;
            };
            let key = corpus.arena.bytes(label);
            let said = match said_by_key.get(key) {
                Some(said) => *said,
                None => {
                    let said = read(&lossy(key));
                    said_by_key.insert(key.to_vec(), said);
                    said
                }
            };
            if let Some(said) = said {
                found.push((position, said));
            }
        }
        found
    }

    /// (position, unit) of the raw scalars whose nearest key names a unit, by dimension.
    fn unit_rows(&mut self) -> &UnitRows {
        if self.units_by_dimension.is_none() {
            let mut found = UnitRows::default();
            for (position, unit) in self.keyed_rows(units::key_unit) {
                found
                    .entry(units::dimension(unit))
                    .or_default()
                    .push((position, unit));
            }
            self.units_by_dimension = Some(found);
        }
        self.units_by_dimension.get_or_insert_with(HashMap::default)
    }

    /// Evidence values in another unit of `target`'s dimension, converted into `target`: paid up
    /// front, so an answer naming every unit cannot multiply the work past the budget.
    fn in_unit(
        &mut self,
        name: &str,
        target: &str,
        budget: &mut WorkBudget,
    ) -> Result<Group, BudgetSpent> {
        let rows = self
            .unit_rows()
            .get(&units::dimension(target))
            .cloned()
            .unwrap_or_default();
        let numbers = self
            .figures(AtomKind::Number)
            .map(|figures| figures.atoms.as_slice())
            .unwrap_or_default();
        budget.pay(PROBE * (rows.len() + numbers.len()) as i64)?;
        let values = &self.corpus.scalar_values;
        let mut converted = Vec::new();
        let mut entries = Vec::new();
        for (position, unit) in rows {
            let Some(value) = values.get(position) else {
                continue;
            };
            for reading in units::in_unit(*value, unit, target) {
                converted.push(reading);
                entries.push(Entry::Scalar(position));
            }
        }
        let group_name: Arc<str> = Arc::from(name);
        for figure in numbers {
            let (number, tolerance) = (figure.quantity.value, figure.quantity.tolerance);
            let Some(unit) = figure.quantity.unit else {
                continue;
            };
            for reading in units::in_unit(number, unit, target) {
                let scale = if number != 0.0 { reading / number } else { 0.0 };
                converted.push(reading);
                entries.push(Entry::Hit(Hit::new(
                    Arc::clone(&group_name),
                    figure.place.origin(),
                    None,
                    reading,
                    tolerance * scale,
                )));
            }
        }
        Ok(Group::new(name, &converted, entries))
    }

    /// Evidence readings that state every component of `mask` (y=4, m=2, d=1) with `reading`'s
    /// values, the first `PER_RANGE` of them; one table per mask, built on first use.
    pub fn dates(
        &mut self,
        mask: u8,
        reading: &Reading,
        budget: &mut WorkBudget,
    ) -> Vec<(Arc<Hit>, Reading)> {
        let corpus = &self.corpus;
        let date_atoms = &self.date_atoms;
        let table = self.dates.get_or_insert_with(|| {
            let count = date_atoms
                .iter()
                .map(|(_, value)| date_readings(value).len())
                .sum();
            // One list, sized once (a list per atom was an allocation each).
            let mut readings = Vec::with_capacity(count);
            for (atom, (_, value)) in date_atoms.iter().enumerate() {
                let each = date_readings(value).iter();
                readings
                    .extend(each.map(|(y, m, d)| (atom, (*y, m.map(i64::from), d.map(i64::from)))));
            }
            let scalars = corpus
                .scalar_values
                .iter()
                .zip(&corpus.scalar_rows)
                .map(|(value, row)| RawYear {
                    value: *value,
                    float_literal: matches!(row.literal, Literal::Float(_)),
                })
                .collect();
            DateIndex::new(readings, scalars)
        });
        let found = table.dates(mask, reading, budget);
        if found.is_empty() {
            return Vec::new();
        }
        let date: Arc<str> = Arc::from(AtomKind::Date.as_str());
        let raw: Arc<str> = Arc::from("raw");
        found
            .iter()
            .filter_map(|&(entry, matched)| {
                let hit = match entry {
                    DateEntry::Atom(at) => {
                        let (origin, value) = date_atoms.get(at)?;
                        Hit::new(
                            Arc::clone(&date),
                            origin.clone(),
                            Some(Arc::clone(value)),
                            0.0,
                            0.0,
                        )
                    }
                    DateEntry::Scalar(at) => Hit::new(
                        Arc::clone(&raw),
                        Origin::Scalar(at),
                        None,
                        *corpus.scalar_values.get(at)?,
                        0.0,
                    ),
                };
                Some((hit, matched))
            })
            .collect()
    }

    fn identifier_index(&mut self) -> &IdentifierIndex {
        let hits = &self.identifier_hits;
        self.identifiers.get_or_insert_with(|| {
            IdentifierIndex::new(hits.iter().map(|hit| match hit.value.as_deref() {
                Some(AtomValue::Identifier(identifier)) => {
                    (identifier.shape, identifier.normalized.as_str())
                }
                _ => ("", ""),
            }))
        })
    }

    fn identifier_hits_at(&self, positions: Vec<usize>) -> Vec<Arc<Hit>> {
        positions
            .into_iter()
            .filter_map(|at| self.identifier_hits.get(at).cloned())
            .collect()
    }

    /// Every occurrence of the identifier `normalized` of `shape`, in document order.
    pub fn identifiers(
        &mut self,
        shape: &str,
        normalized: &str,
        budget: &mut WorkBudget,
    ) -> Vec<Arc<Hit>> {
        let found = self
            .identifier_index()
            .identifiers(shape, normalized, budget);
        self.identifier_hits_at(found)
    }

    /// The first occurrence of each identifier of `shape` one edit from `normalized`.
    pub fn identifiers_near(
        &mut self,
        shape: &str,
        normalized: &str,
        budget: &mut WorkBudget,
    ) -> Vec<Arc<Hit>> {
        let found = self.identifier_index().near(shape, normalized, budget);
        self.identifier_hits_at(found)
    }

    /// The first `PER_RANGE` evidence times filed under `key` (a clock, hour or minute, as
    /// written or in UTC), in document order; the index is built on first use.
    pub fn times(&mut self, key: TimeKey, budget: &mut WorkBudget) -> Vec<Arc<Hit>> {
        let hits = &self.time_hits;
        let index = self.times.get_or_insert_with(|| {
            TimeIndex::new(hits.iter().filter_map(|hit| match hit.value.as_deref() {
                Some(AtomValue::Time(clock)) => Some(clock),
                _ => None,
            }))
        });
        index
            .times(key, budget)
            .into_iter()
            .filter_map(|at| self.time_hits.get(at).cloned())
            .collect()
    }

    /// The first occurrence of the smallest identifier of `shape` that extends `prefix`.
    pub fn identifier_extending(
        &mut self,
        shape: &str,
        prefix: &str,
        budget: &mut WorkBudget,
    ) -> Option<Arc<Hit>> {
        let found = self.identifier_index().extending(shape, prefix, budget)?;
        self.identifier_hits.get(found).cloned()
    }
}

/// A slot of `last_keys`' 64 recent keys for `text`: its length and ends, mixed.
fn recent_slot(text: &[u8]) -> usize {
    let ends = text.first().zip(text.last());
    let ends = ends.map_or(0, |(a, z)| u64::from(*a) << 8 | u64::from(*z) << 16);
    ((text.len() as u64 ^ ends).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize
}

/// A JSON integer in a record with a currency of hundredths, as payment APIs give amounts
/// (Stripe's `{"amount": 1999, "currency": "usd"}` is $19.99).
fn in_minor_units(row: &ScalarRow) -> bool {
    matches!(row.literal, Literal::Int(_) | Literal::BigInt(_))
        && row
            .currency
            .is_some_and(|code| !NOT_HUNDREDTHS.contains(&&code))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::CANDIDATE;
    use crate::date_index::YEAR;
    use crate::test_evidence::index_of;

    const INVOICE: &str = r#"{"note": "Résumé: revenue $1,243,500 on 2025-03-04, INC-4521", "total": 1243500.5, "currency": "usd", "amount_cents": 1999, "distance_km": 12}"#;

    #[test]
    fn atoms_are_cited_in_code_points_with_their_label_words() {
        let index = index_of(&[INVOICE], &EvidenceNeeds::everything());
        let corpus = index.corpus();
        let money = index.figures(AtomKind::Money).map(|f| f.atoms.len());
        assert_eq!(money, Some(1));
        let hit = index.figures(AtomKind::Money).and_then(|f| f.hit(0));
        let hit = hit.as_deref().expect("the money atom's hit");
        assert_eq!(hit.text(corpus), b"$1,243,500");
        let citation = hit.citation(corpus);
        assert_eq!((citation.start, citation.end), (Some(16), Some(26)));
        assert_eq!(citation.path.as_deref(), Some(&b"$.note"[..]));
        let words = hit.words(corpus);
        assert!(words.contains("revenue") && words.contains("note"));
        assert_eq!(hit.currency(corpus).as_deref(), Some("USD"));
    }

    #[test]
    fn groups_read_raw_scalars_as_fractions_minor_units_and_units() {
        let mut index = index_of(&[INVOICE], &EvidenceNeeds::everything());
        let mut budget = WorkBudget::new(1000);
        let minor = index
            .group("minor", &mut budget)
            .map(|g| g.values().to_vec());
        // Every integer of a record with a currency of hundredths counts, `distance_km` too.
        assert_eq!(minor, Ok(vec![0.12, 19.99]));
        let found = index
            .group("unit:m", &mut budget)
            .map(|group| group.nearest(12_000.0, 0.0, 1e9, 4, &mut budget));
        let found = found.unwrap_or_default();
        assert_eq!(found.len(), 1);
        assert_eq!(&*found[0].kind, "unit:m");
        assert_eq!(found[0].key_unit(index.corpus()), Some("km"));
        assert_eq!(found[0].text(index.corpus()), b"12");
        assert_eq!(
            index.group("date", &mut budget).err(),
            Some(GroupError::Unknown)
        );
    }

    #[test]
    fn a_unit_group_the_budget_cannot_pay_for_is_refused_and_not_kept() {
        let mut index = index_of(&[INVOICE], &EvidenceNeeds::everything());
        let mut budget = WorkBudget::new(0);
        assert_eq!(
            index.nonempty(&["raw", "unit:m"], &mut budget),
            Err(GroupError::BudgetSpent)
        );
        assert_eq!(budget.left, 0);
        assert!(index.groups.contains_key("raw") && !index.groups.contains_key("unit:m"));
    }

    #[test]
    fn unwanted_kinds_are_extracted_but_not_indexed() {
        let needs = EvidenceNeeds {
            kinds: vec![AtomKind::Date],
            shapes: None,
        };
        let mut index = index_of(&[INVOICE], &needs);
        assert!(index
            .figures(AtomKind::Money)
            .is_some_and(|f| f.atoms.is_empty()));
        let mut budget = WorkBudget::new(100);
        let found = index.dates(YEAR, &(Some(2025), None, None), &mut budget);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0.text(index.corpus()), b"2025-03-04");
        assert_eq!(budget.left, 100 - PROBE - CANDIDATE);
        assert!(index
            .identifiers("ticket", "INC-4521", &mut budget)
            .is_empty());
    }
}

//! `score()` (`scoring/scorer.py`): extract the answer's atoms, index the evidence, judge each atom
//! in answer order until the work budget is spent, apply the rules. The caller walks the evidence
//! into a `Corpus` and turns `Scored` into its report.

use std::collections::BTreeSet;

use crate::atoms::{Atom, AtomValue, Reading};
use crate::budget::{WorkBudget, ATOM};
use crate::corpus::Corpus;
use crate::derivation::Stop;
use crate::derivations::{derivation_needs, Deriver};
use crate::extract::calendar::Day;
use crate::extract::{extract_atoms, ExtractError};
use crate::index::EvidenceIndex;
use crate::label_words::AtomContext;
use crate::policy::Policy;
use crate::rules;
use crate::sentences::sentence_spans;
use crate::stated_figures::stated_figures;
use crate::verdicts::{evidence_needs, judge, Judgement};
use crate::vocabulary::{Label, TruncationReason, Verdict};

/// The rules' figures over the judged atoms (none when there is nothing to judge or no evidence).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    pub ratio: f64,
    pub sentences: f64,
    pub strict: bool,
}

/// What one `score` call found. `atoms[..judged.len()]` were judged; the rest are unchecked.
/// Offsets are bytes of `text` (the answer cut at `max_answer_chars`).
pub struct Scored<'t> {
    pub text: &'t str,
    pub answer_truncated: bool,
    pub atoms: Vec<Atom>,
    pub judged: Vec<Judgement>,
    pub sentence_of: Vec<usize>,
    pub no_evidence: bool,
    pub truncation: BTreeSet<TruncationReason>,
    pub figures: Option<Figures>,
    pub label: Label,
    /// The evidence the judgements cite (`None`: the answer had no atoms, nothing was indexed).
    pub index: Option<EvidenceIndex>,
    pub corpus: Option<Corpus>,
}

impl Scored<'_> {
    /// The corpus the citations read.
    pub fn corpus(&self) -> Option<&Corpus> {
        self.index
            .as_ref()
            .map(EvidenceIndex::corpus)
            .or(self.corpus.as_ref())
    }
}

/// How `score` extracts atoms, the same for the answer and the evidence.
pub struct Extraction<'k> {
    pub locale: &'k str,
    pub min_number_digits: i64,
    pub kinds: &'k [&'k str],
    pub anchor: Option<Day>,
    /// The short figures a text states as answers ("It is 3.85.") join in.
    pub stated: bool,
}

impl<'k> Extraction<'k> {
    pub fn of(policy: &'k Policy, kinds: &'k [&'k str]) -> Self {
        Extraction {
            locale: &policy.locale,
            min_number_digits: i64::try_from(policy.min_number_digits).unwrap_or(i64::MAX),
            kinds,
            anchor: policy.anchor_date.map(|(year, month, day)| Day {
                year: i64::from(year),
                month: u32::from(month),
                day: u32::from(day),
            }),
            stated: true,
        }
    }

    /// The atoms of `text`, then (when `stated`) the stated figures of the enabled kinds.
    pub fn atoms(&self, text: &str) -> Result<Vec<Atom>, ExtractError> {
        let mut atoms = extract_atoms(
            text,
            self.locale,
            self.min_number_digits,
            self.kinds,
            self.anchor,
        )?;
        if self.stated {
            let spans: Vec<(usize, usize)> =
                atoms.iter().map(|atom| (atom.start, atom.end)).collect();
            let digits = usize::try_from(self.min_number_digits).unwrap_or(0);
            let found = stated_figures(text, &spans, digits);
            if !found.is_empty() {
                atoms.extend(found);
                atoms.sort_by_key(|atom| atom.start); // stable, as Python's `sorted`
                atoms.retain(|atom| self.kinds.contains(&atom.kind.as_str()));
            }
        }
        Ok(atoms)
    }
}

/// `text[:chars]` of Python: the first `chars` code points.
fn first_chars(text: &str, chars: usize) -> &str {
    match text.char_indices().nth(chars) {
        Some((byte, _)) => text.get(..byte).unwrap_or(text),
        None => text,
    }
}

/// Scores `answer` against `corpus` (walked with the policy's prompt and byte cap). `question`
/// is the turn's question, read for what it asks whether or not it counts as evidence. `Err`:
/// the former Python engine raised on this input.
pub fn score<'t>(
    answer: &'t str,
    corpus: Corpus,
    question: Option<&str>,
    policy: &Policy,
) -> Result<Scored<'t>, &'static str> {
    let kinds: Vec<&str> = policy.enabled_kinds.iter().map(|k| k.as_str()).collect();
    let text = first_chars(answer, policy.max_answer_chars);
    let answer_truncated = text.len() < answer.len();
    let extraction = Extraction::of(policy, &kinds);
    let atoms = extraction
        .atoms(text)
        .map_err(|_| "extraction refused the policy")?;
    let no_evidence = !corpus.has_tool_evidence;
    let truncation = corpus.reasons.clone();
    let mut scored = Scored {
        text,
        answer_truncated,
        atoms: Vec::new(),
        judged: Vec::new(),
        sentence_of: Vec::new(),
        no_evidence,
        truncation,
        figures: None,
        label: if no_evidence {
            Label::NoEvidence
        } else {
            Label::NoFactualContent
        },
        index: None,
        corpus: None,
    };
    if atoms.is_empty() {
        scored.corpus = Some(corpus);
        return Ok(scored);
    }
    let mut budget = WorkBudget::new(policy.work_budget);
    let mut needs = evidence_needs(&atoms, text);
    if policy.derived_values {
        needs = derivation_needs(&atoms, needs);
    }
    let mut refused = None;
    let mut index = EvidenceIndex::new(
        corpus,
        |fragment| {
            extraction.atoms(fragment).unwrap_or_else(|_| {
                refused = Some("extraction refused the policy");
                Vec::new()
            })
        },
        &needs,
    );
    if let Some(why) = refused {
        return Err(why);
    }
    let mut deriver = policy.derived_values.then(|| {
        Deriver::new(
            policy.max_derivation_operands,
            policy.max_derivation_candidates,
            question,
        )
    });
    let spans = sentence_spans(
        text,
        &atoms
            .iter()
            .map(|atom| (atom.start, atom.end))
            .collect::<Vec<_>>(),
    );
    let sentence_of = sentence_numbers(&atoms, &spans);
    let judged = Judging {
        text,
        atoms: &atoms,
        spans: &spans,
        sentence_of: &sentence_of,
        band: policy.contradicted_band,
    }
    .run(&mut index, deriver.as_mut(), &mut budget)
    .map_err(failed)?;
    let checked = judged.len();
    scored.sentence_of = sentence_of.get(..checked).unwrap_or_default().to_vec();
    if checked > 0 && !no_evidence {
        let outcome: Vec<Verdict> = judged.iter().map(|j| j.verdict).collect();
        let figures = Figures {
            ratio: rules::atom_ratio(&outcome),
            sentences: rules::sentence_score(&outcome, &scored.sentence_of),
            strict: rules::strict_pass(&outcome),
        };
        let contradicted = outcome
            .iter()
            .filter(|v| **v == Verdict::Contradicted)
            .count();
        scored.label = rules::label(
            policy.label_rule,
            figures.ratio,
            figures.sentences,
            figures.strict,
            contradicted,
            policy.min_alert_score,
        );
        scored.figures = Some(figures);
    }
    scored.atoms = atoms;
    scored.judged = judged;
    scored.index = Some(index);
    Ok(scored)
}

fn failed(stop: Stop) -> &'static str {
    match stop {
        Stop::Budget => "the work budget refused outside a judgement",
        Stop::Failed(why) => why,
    }
}

fn sentence_numbers(atoms: &[Atom], spans: &[(usize, usize)]) -> Vec<usize> {
    let mut current = 0;
    atoms
        .iter()
        .map(|atom| {
            while current + 1 < spans.len() && spans.get(current).is_some_and(|s| s.1 <= atom.start)
            {
                current += 1;
            }
            current
        })
        .collect()
}

/// The answer's atoms and sentences, judged in order (`_judge_atoms`).
struct Judging<'a> {
    text: &'a str,
    atoms: &'a [Atom],
    spans: &'a [(usize, usize)],
    sentence_of: &'a [usize],
    band: f64,
}

impl<'a> Judging<'a> {
    fn written(&self, atom: &Atom) -> &'a str {
        self.text.get(atom.start..atom.end).unwrap_or_default()
    }

    fn context(&self, position: usize, atom: &Atom, sentence: usize) -> AtomContext<'a> {
        let previous_end = match position.checked_sub(1).and_then(|p| self.atoms.get(p)) {
            Some(previous) => previous.end,
            None => 0,
        };
        let next_start = self
            .atoms
            .get(position + 1)
            .map_or(self.text.len(), |next| next.start);
        let previous = sentence
            .checked_sub(1)
            .and_then(|s| self.spans.get(s))
            .copied();
        AtomContext::new(
            self.text,
            (atom.start, atom.end),
            self.spans.get(sentence).copied().unwrap_or_default(),
            (previous_end, next_start),
            previous,
        )
    }

    /// The atoms judged, in order, until the work budget is spent; a sentence's second
    /// derivation searches run once its last atom is judged.
    fn run(
        &self,
        index: &mut EvidenceIndex,
        mut deriver: Option<&mut Deriver>,
        budget: &mut WorkBudget,
    ) -> Result<Vec<Judgement>, Stop> {
        let mut judged: Vec<(AtomContext<'a>, Judgement)> = Vec::new();
        let mut sentence_first = 0;
        for (position, (atom, sentence)) in self.atoms.iter().zip(self.sentence_of).enumerate() {
            let previous_sentence = position
                .checked_sub(1)
                .and_then(|p| self.sentence_of.get(p));
            if previous_sentence.is_some_and(|previous| previous != sentence) {
                if !self.search_again(
                    &mut judged,
                    sentence_first,
                    deriver.as_deref_mut(),
                    atom.start,
                    index,
                    budget,
                )? {
                    return Ok(judged.into_iter().map(|(_, j)| j).collect());
                }
                sentence_first = position;
            }
            if budget.spent() {
                break; // the rest are unchecked: no verdict comes from a cut-short search
            }
            budget.left -= ATOM;
            let around = self.context(position, atom, *sentence);
            let judgement = match judge(
                atom,
                self.written(atom),
                index,
                &around,
                self.band,
                deriver.as_deref_mut(),
                budget,
            ) {
                Ok(judgement) => judgement,
                Err(Stop::Budget) => break, // its derivation search could not be paid for
                Err(stop) => return Err(stop),
            };
            if let Some(deriver) = deriver.as_deref_mut() {
                if judgement.verdict == Verdict::Supported {
                    deriver.note(atom, judgement.hit.as_ref());
                }
            }
            judged.push((around, judgement));
        }
        let unjudged_from = self
            .atoms
            .get(judged.len())
            .map_or(self.text.len(), |atom| atom.start);
        self.search_again(
            &mut judged,
            sentence_first,
            deriver,
            unjudged_from,
            index,
            budget,
        )?;
        Ok(judged.into_iter().map(|(_, j)| j).collect())
    }

    /// Second searches for the sentence `judged[first..]`, in place; the first one the budget
    /// cannot give drops its atom and the rest (unchecked) and returns false.
    fn search_again(
        &self,
        judged: &mut Vec<(AtomContext<'a>, Judgement)>,
        first: usize,
        deriver: Option<&mut Deriver>,
        unjudged_from: usize,
        index: &mut EvidenceIndex,
        budget: &mut WorkBudget,
    ) -> Result<bool, Stop> {
        let Some(deriver) = deriver else {
            return Ok(true);
        };
        for position in first..judged.len() {
            let Some(atom) = self.atoms.get(position) else {
                break;
            };
            let Some((around, judgement)) = judged.get(position) else {
                break;
            };
            match self.rederived(
                atom,
                around,
                judgement,
                deriver,
                unjudged_from,
                index,
                budget,
            ) {
                Ok(Some(again)) => {
                    if let Some(slot) = judged.get_mut(position) {
                        slot.1 = again;
                    }
                }
                Ok(None) => {}
                Err(Stop::Budget) => {
                    judged.truncate(position);
                    return Ok(false);
                }
                Err(stop) => return Err(stop),
            }
        }
        Ok(true)
    }

    /// A figure not supported at first, searched again once the figures after it in its
    /// sentence have their evidence ("up 25% to $1.25M from $1.0M"); `None`: unchanged.
    #[allow(clippy::too_many_arguments)]
    fn rederived(
        &self,
        atom: &Atom,
        around: &AtomContext<'a>,
        judgement: &Judgement,
        deriver: &mut Deriver,
        unjudged_from: usize,
        index: &mut EvidenceIndex,
        budget: &mut WorkBudget,
    ) -> Result<Option<Judgement>, Stop> {
        let AtomValue::Quantity(quantity) = &atom.value else {
            return Ok(None);
        };
        if judgement.verdict == Verdict::Supported {
            return Ok(None);
        }
        if around.upper > unjudged_from && !deriver.operations(atom, quantity, around).is_empty() {
            return Err(Stop::Budget);
        }
        if !deriver.cited_after(atom, around) {
            return Ok(None);
        }
        let derived = deriver.derive(atom, self.written(atom), quantity, around, index, budget)?;
        Ok(derived.map(|derivation| Judgement {
            verdict: Verdict::Supported,
            reason: derivation.reason(),
            hit: None,
            reading: None,
            derivation: Some(derivation),
        }))
    }
}

/// The normalised value of a judged atom: a finite number, ISO dates (the deciding reading, else
/// every reading, joined by `|`), or an identifier's comparison form.
#[derive(Debug, Clone, PartialEq)]
pub enum Normalized {
    Number(Option<f64>),
    Text(String),
}

pub fn normalized(atom: &Atom, reading: Option<&Reading>) -> Normalized {
    match &atom.value {
        AtomValue::Quantity(quantity) => {
            Normalized::Number(quantity.value.is_finite().then_some(quantity.value))
        }
        AtomValue::Date(date) => {
            let readings = match reading {
                Some(reading) => std::slice::from_ref(reading),
                None => date.readings.as_slice(),
            };
            Normalized::Text(readings.iter().map(iso).collect::<Vec<_>>().join("|"))
        }
        AtomValue::Identifier(identifier) => Normalized::Text(identifier.normalized.clone()),
        AtomValue::Time(clock) => Normalized::Text(clock.normalized()),
    }
}

fn iso((year, month, day): &Reading) -> String {
    let mut text = match year {
        Some(year) => format!("{year:04}"),
        None => "-".to_owned(),
    };
    if let Some(month) = month {
        text.push_str(&format!("-{month:02}"));
        if let Some(day) = day {
            text.push_str(&format!("-{day:02}"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atoms::CalendarDate;
    use crate::test_evidence::corpus_of;
    use crate::vocabulary::AtomKind;

    #[test]
    fn the_answer_is_cut_at_a_code_point_count() {
        assert_eq!(first_chars("été 2025", 3), "été");
        assert_eq!(first_chars("abc", 10), "abc");
        let policy = Policy {
            max_answer_chars: 12,
            ..Policy::default()
        };
        let scored =
            score("Revenue was $1,243,500.", corpus_of(&["{}"]), None, &policy).expect("scores");
        assert!(scored.answer_truncated);
        assert_eq!(scored.text, "Revenue was ");
        assert_eq!(scored.label, Label::NoFactualContent); // the figure was cut off
        let scored = score("Revenue", corpus_of(&[]), None, &policy).expect("scores");
        assert_eq!(scored.label, Label::NoEvidence);
    }

    #[test]
    fn an_answer_without_atoms_indexes_nothing() {
        let scored = score(
            "Nothing to check.",
            corpus_of(&[r#"{"a": 1}"#]),
            None,
            &Policy::default(),
        )
        .expect("scores");
        assert_eq!(scored.label, Label::NoFactualContent);
        assert!(scored.index.is_none() && scored.corpus.is_some());
        assert!(scored.figures.is_none());
    }

    #[test]
    fn sentences_are_numbered_by_where_atoms_start() {
        let atom = |start| Atom::identifier(start, start + 1, String::new(), "ticket");
        let atoms = [atom(0), atom(5), atom(12), atom(30)];
        assert_eq!(
            sentence_numbers(&atoms, &[(0, 10), (10, 20), (20, 40)]),
            vec![0, 0, 1, 2]
        );
    }

    #[test]
    fn dates_normalise_to_iso_readings() {
        let date = Atom {
            kind: AtomKind::Date,
            start: 0,
            end: 1,
            value: AtomValue::Date(CalendarDate {
                readings: vec![
                    (Some(2025), Some(3), Some(4)),
                    (Some(2025), Some(4), Some(3)),
                ],
            }),
        };
        assert_eq!(
            normalized(&date, None),
            Normalized::Text("2025-03-04|2025-04-03".to_owned())
        );
        assert_eq!(
            normalized(&date, Some(&(None, Some(7), None))),
            Normalized::Text("--07".to_owned())
        );
    }
}

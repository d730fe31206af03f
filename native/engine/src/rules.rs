//! The rules computed over one answer's verdicts, side by side, and the label rule.
//!
//! `atom_ratio` (the main score): supported atoms / all atoms. `strict`: passes only when every
//! atom is supported. `sentence`: the share of sentences with atoms whose atoms are all supported.
//! The label, from the chosen rule's figure `s`: `grounded` when s == 1; `ungrounded` when any atom
//! is contradicted or s < `min_alert_score`; `partially_grounded` otherwise. Under `strict` the
//! label is `grounded` or `ungrounded`.

use crate::vocabulary::{Label, LabelRule, Verdict};

/// Supported atoms over all atoms; NaN for no atoms (callers report no score then).
pub fn atom_ratio(verdicts: &[Verdict]) -> f64 {
    let supported = verdicts
        .iter()
        .filter(|v| **v == Verdict::Supported)
        .count();
    supported as f64 / verdicts.len() as f64
}

pub fn strict_pass(verdicts: &[Verdict]) -> bool {
    verdicts.iter().all(|v| *v == Verdict::Supported)
}

/// `sentence_of[i]` is the sentence number of the i-th atom; both slices have the same length.
pub fn sentence_score(verdicts: &[Verdict], sentence_of: &[usize]) -> f64 {
    let mut sentences: Vec<usize> = sentence_of.to_vec();
    sentences.sort_unstable();
    sentences.dedup();
    let mut failed: Vec<usize> = verdicts
        .iter()
        .zip(sentence_of)
        .filter(|(verdict, _)| **verdict != Verdict::Supported)
        .map(|(_, sentence)| *sentence)
        .collect();
    failed.sort_unstable();
    failed.dedup();
    (sentences.len() - failed.len()) as f64 / sentences.len() as f64
}

pub fn label(
    rule: LabelRule,
    ratio: f64,
    sentences: f64,
    strict: bool,
    contradicted: usize,
    min_alert_score: f64,
) -> Label {
    let figure = match rule {
        LabelRule::Strict => {
            return if strict {
                Label::Grounded
            } else {
                Label::Ungrounded
            }
        }
        LabelRule::AtomRatio => ratio,
        LabelRule::Sentence => sentences,
    };
    if figure >= 1.0 {
        Label::Grounded
    } else if contradicted > 0 || figure < min_alert_score {
        Label::Ungrounded
    } else {
        Label::PartiallyGrounded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{Supported, Unsupported};

    #[test]
    fn a_sentence_fails_with_any_of_its_atoms() {
        let verdicts = [Supported, Unsupported, Supported, Supported];
        assert_eq!(sentence_score(&verdicts, &[0, 0, 1, 2]), 2.0 / 3.0);
        assert_eq!(atom_ratio(&verdicts), 0.75);
        assert!(!strict_pass(&verdicts));
    }

    #[test]
    fn a_contradiction_makes_any_figure_below_one_ungrounded() {
        let rule = LabelRule::AtomRatio;
        assert_eq!(label(rule, 0.9, 1.0, false, 1, 0.8), Label::Ungrounded);
        assert_eq!(
            label(rule, 0.9, 1.0, false, 0, 0.8),
            Label::PartiallyGrounded
        );
        assert_eq!(label(rule, 0.7, 1.0, false, 0, 0.8), Label::Ungrounded);
        assert_eq!(label(rule, 1.0, 0.0, true, 0, 0.8), Label::Grounded);
        assert_eq!(
            label(LabelRule::Strict, 0.99, 0.99, false, 0, 0.0),
            Label::Ungrounded
        );
        assert_eq!(
            label(LabelRule::Sentence, 0.5, 1.0, false, 0, 0.8),
            Label::Grounded
        );
    }
}

//! The wording that says an answer figure was computed, and which operations it allows
//! (`scoring/derivation_cues.py`).
//!
//! A derivation is looked for only when the words next to the figure name one ("total",
//! "average", "grew", "of", "each", "="); the wording also narrows the operations tried, and it is
//! what allows an absolute difference ("fell by $12,400"). Words are compared as a set.

use std::collections::BTreeSet;

use crate::label_words::AtomContext;
use crate::pyunicode::{is_digit, is_space, is_word, letter_runs, lower};
use crate::vocabulary::DerivedOperation::{
    self, Average, Difference, PctChange, PpDifference, Product, Ratio, Sum,
};

/// A set of operations (Python's `frozenset[DerivedOperation]`).
pub type Operations = BTreeSet<DerivedOperation>;

fn is_sum(word: &str) -> bool {
    matches!(
        word,
        "aggregate"
            | "altogether"
            | "combined"
            | "cumulative"
            | "overall"
            | "sum"
            | "summed"
            | "sums"
            | "together"
            | "total"
            | "totaled"
            | "totaling"
            | "totalled"
            | "totalling"
            | "totals"
    )
}

fn is_average(word: &str) -> bool {
    matches!(
        word,
        "average" | "averaged" | "averages" | "averaging" | "avg" | "mean" | "per"
    )
}

/// Words that name a change: they say what is computed, never which table row or column.
pub fn is_change_word(word: &str) -> bool {
    matches!(
        word,
        "change"
            | "changed"
            | "changes"
            | "climb"
            | "climbed"
            | "decline"
            | "declined"
            | "declines"
            | "declining"
            | "decrease"
            | "decreased"
            | "decreases"
            | "decreasing"
            | "differ"
            | "differed"
            | "difference"
            | "differs"
            | "down"
            | "drop"
            | "dropped"
            | "drops"
            | "fall"
            | "falls"
            | "fell"
            | "fewer"
            | "gain"
            | "gained"
            | "gains"
            | "gap"
            | "grew"
            | "grow"
            | "growing"
            | "grows"
            | "growth"
            | "higher"
            | "increase"
            | "increased"
            | "increases"
            | "increasing"
            | "jump"
            | "jumped"
            | "leaving"
            | "left"
            | "less"
            | "loss"
            | "lost"
            | "lower"
            | "more"
            | "remaining"
            | "rise"
            | "rises"
            | "rising"
            | "rose"
            | "shrank"
            | "shrink"
            | "shrunk"
            | "up"
            | "yoy"
    )
}

fn is_share(word: &str) -> bool {
    matches!(
        word,
        "fraction"
            | "margin"
            | "of"
            | "proportion"
            | "rate"
            | "ratio"
            | "represent"
            | "represented"
            | "represents"
            | "share"
    )
}

fn is_each(word: &str) -> bool {
    matches!(word, "apiece" | "each" | "per" | "times")
}

fn is_product(word: &str) -> bool {
    matches!(
        word,
        "apiece" | "at" | "cost" | "costs" | "each" | "priced" | "times" | "worth"
    )
}

/// Two-word cues: "add up to" sums (its "up" is no increase), "accounts for" is a share, and
/// "year over year" a change.
fn is_sum_pair(pair: (&str, &str)) -> bool {
    matches!(pair, ("add" | "adds" | "added", "up") | ("in", "all"))
}

fn is_share_pair(pair: (&str, &str)) -> bool {
    matches!(pair, ("accounts" | "account", "for"))
}

fn is_change_pair(pair: (&str, &str)) -> bool {
    matches!(
        pair,
        ("year", "over" | "on") | ("month" | "quarter", "over")
    )
}

const CHANGES: [DerivedOperation; 3] = [Difference, PctChange, PpDifference];

fn without_changes(mut found: Operations) -> Operations {
    found.retain(|operation| !CHANGES.contains(operation));
    found
}

/// The operations the wording around the figure allows: read between the neighbouring atoms, and
/// in the sentence when that stretch names none. A figure right after "to" ("grew to $1.5M") is
/// where a change ended, a value as it stands: no change.
pub fn cued_operations(around: &AtomContext<'_>, percent: bool) -> Operations {
    for near in [true, false] {
        let (before, after) = around.window_text(near);
        let mut between = String::with_capacity(before.len() + 1 + after.len());
        between.push_str(before);
        between.push(' ');
        between.push_str(after);
        let found = operations_in(&between, percent);
        if !found.is_empty() {
            return if ends_change(before) {
                without_changes(found)
            } else {
                found
            };
        }
    }
    Operations::new()
}

/// `operations` and those the figure's whole sentence names, for the label-chosen table search;
/// still no change for a figure right after "to".
pub fn table_operations(
    operations: &Operations,
    around: &AtomContext<'_>,
    percent: bool,
) -> Operations {
    let mut found = operations_in(around.sentence_text(), percent);
    found.extend(operations.iter().copied());
    if ends_change(around.window_text(true).0) {
        without_changes(found)
    } else {
        found
    }
}

/// The figure ends a change ("grew to", "fell sharply to"); "comes to" names none.
fn ends_change(before: &str) -> bool {
    let lowered = lower(before);
    let tokens: Vec<&str> = letter_runs(&lowered).collect();
    match tokens.split_last() {
        Some((&"to", head)) => head
            .get(head.len().saturating_sub(2)..)
            .unwrap_or_default()
            .iter()
            .any(|word| is_change_word(word)),
        _ => false,
    }
}

/// `\d\s?x\b` (Python's classes): "3x", "3 x" as a multiplication.
fn times_x(text: &str) -> bool {
    text.char_indices().any(|(at, c)| {
        if c != 'x'
            || text
                .get(at + 1..)
                .and_then(|rest| rest.chars().next())
                .is_some_and(is_word)
        {
            return false;
        }
        let mut before = text.get(..at).unwrap_or_default().chars().rev();
        match before.next() {
            Some(previous) if is_digit(previous) => true,
            Some(previous) if is_space(previous) => before.next().is_some_and(is_digit),
            _ => false,
        }
    })
}

/// The operations `text` names (the wording near a figure, or the question it answers).
pub fn operations_in(text: &str, percent: bool) -> Operations {
    let mut found = Operations::new();
    if text.is_empty() {
        return found;
    }
    // Markdown bold ("It is **3.85**."), no multiplication.
    let text = if text.contains("**") {
        std::borrow::Cow::Owned(text.replace("**", " "))
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    let text = text.as_ref();
    let lowered = lower(text);
    // Python compares the words as a set: any/all over the tokens read the same.
    let words: Vec<&str> = letter_runs(&lowered).collect();
    let any_word = |test: fn(&str) -> bool| words.iter().any(|word| test(word));
    let any_pair = |test: fn((&str, &str)) -> bool| {
        words.windows(2).any(|pair| match pair {
            [first, second] => test((first, second)),
            _ => false,
        })
    };
    if text.contains('=') {
        found.extend([
            Sum,
            Difference,
            PctChange,
            Ratio,
            Average,
            Product,
            PpDifference,
        ]);
    }
    // "add up to" alone names a sum: its "up" is no increase.
    let only_up = words
        .iter()
        .filter(|word| is_change_word(word))
        .all(|word| *word == "up");
    let change = (any_word(is_change_word) && !(only_up && any_pair(is_sum_pair)))
        || any_pair(is_change_pair);
    let divides = text.contains('/') || text.contains('÷');
    if percent {
        if change {
            found.extend([PctChange, PpDifference]);
        }
        if any_word(is_share) || any_pair(is_share_pair) || divides {
            found.insert(Ratio);
        }
        if words.iter().any(|word| *word != "per" && is_average(word)) {
            found.insert(Average);
        }
        found.retain(|operation| matches!(operation, PctChange | Ratio | PpDifference | Average));
        return found;
    }
    if any_word(is_sum) || any_pair(is_sum_pair) || text.contains('+') {
        found.insert(Sum);
    }
    if any_word(is_average) {
        found.insert(Average);
    }
    if change {
        found.insert(Difference);
    }
    if any_word(is_each) || words.contains(&"ratio") || divides {
        found.insert(Ratio);
    }
    if any_word(is_product) || text.contains('×') || text.contains('*') || times_x(text) {
        found.insert(Product);
    }
    found.retain(|operation| !matches!(operation, PctChange | PpDifference));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(operations: &[DerivedOperation]) -> Operations {
        operations.iter().copied().collect()
    }

    #[test]
    fn words_name_operations() {
        assert_eq!(operations_in("the total of", false), set(&[Sum]));
        assert_eq!(operations_in("adds up to", false), set(&[Sum]));
        assert_eq!(
            operations_in("grew year over year", true),
            set(&[PctChange, PpDifference])
        );
        assert_eq!(operations_in("accounts for", true), set(&[Ratio]));
        assert_eq!(operations_in("3x the", false), set(&[Product]));
        assert_eq!(operations_in("3 x_", false), set(&[]));
        assert_eq!(operations_in("It is **3.85**.", false), set(&[]));
        assert_eq!(operations_in("per unit", true), set(&[]));
        assert_eq!(
            operations_in("a = b", true),
            set(&[PctChange, Ratio, PpDifference, Average])
        );
    }

    #[test]
    fn a_figure_after_grew_to_ends_a_change() {
        let text = "Revenue grew sharply to $1.5M, a total.";
        let start = text.find('$').unwrap_or_default();
        let around = AtomContext::new(
            text,
            (start, start + 5),
            (0, text.len()),
            (0, text.len()),
            None,
        );
        assert_eq!(cued_operations(&around, false), set(&[Sum]));
        assert_eq!(
            table_operations(&set(&[PctChange, Ratio]), &around, true),
            set(&[Ratio])
        );
    }
}

//! Sentence spans of an answer (the former Python engine's `scoring/sentences.py`): the unit of the sentence
//! rollup and the window for label words. Offsets are bytes.

use crate::extract::chars::{is_letterish, is_space, is_word, py_lower};

/// A period after these words (and after dotted tokens such as "U.S" or "e.g") ends no sentence.
const ABBREVIATIONS: &[&str] = &[
    "approx", "ca", "circa", "etc", "vs", "no", "nr", "inc", "ltd", "corp", "co", "mr", "mrs",
    "ms", "dr", "st", "fig", "est", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept",
    "oct", "nov", "dec", "mon", "tue", "wed", "thu", "fri", "sat", "sun",
];
const MARKS: [char; 3] = ['.', '!', '?'];

/// Split `text` into `(start, end)` spans; boundaries inside an atom ("3. März") are ignored.
/// `atoms` are the atoms' spans, sorted by start.
pub fn sentence_spans(text: &str, atoms: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    let mut atom = 0;
    let bytes = text.as_bytes();
    let mut at = 0;
    // Only a line break or a mark can end a sentence, and all are ASCII: the scan jumps to the
    // next one (a byte below 0x80 is always a whole character).
    while let Some(position) = bytes.get(at..).and_then(|rest| {
        rest.iter()
            .position(|b| matches!(b, b'\n' | b'.' | b'!' | b'?'))
            .map(|offset| at + offset)
    }) {
        let c = char::from(bytes.get(position).copied().unwrap_or_default());
        let Some(end) = boundary(text, position, c) else {
            at = position + 1;
            continue;
        };
        at = end;
        while atoms
            .get(atom)
            .is_some_and(|(_, atom_end)| *atom_end <= position)
        {
            atom += 1;
        }
        if atoms
            .get(atom)
            .is_some_and(|(atom_start, _)| *atom_start <= position)
        {
            continue;
        }
        if text.get(position..end) == Some(".") && is_abbreviation(text, position) {
            continue;
        }
        spans.push((start, end));
        start = end;
    }
    if start < text.len() {
        spans.push((start, text.len()));
    }
    spans.retain(|(from, to)| {
        !text
            .get(*from..*to)
            .unwrap_or_default()
            .trim_matches(is_space)
            .is_empty()
    });
    spans
}

/// `(?<![.!?])[.!?]++(?=\s|$)|\n` at `at`: the end of the boundary.
fn boundary(text: &str, at: usize, c: char) -> Option<usize> {
    if c == '\n' {
        return Some(at + 1);
    }
    if !MARKS.contains(&c) {
        return None;
    }
    let before = text.get(..at).and_then(|head| head.chars().next_back());
    if before.is_some_and(|b| MARKS.contains(&b)) {
        return None;
    }
    let rest = text.get(at..).unwrap_or_default();
    let run = rest.len() - rest.trim_start_matches(MARKS).len();
    let end = at + run;
    let next = text.get(end..).and_then(|tail| tail.chars().next());
    (!next.is_some_and(|n| !is_space(n))).then_some(end)
}

/// Whether the word before the period at `period` is an abbreviation: the former Python engine searches
/// `([^\W\d_][\w.]{0,10})$` in the 12 characters before it (`$` also before a final newline).
fn is_abbreviation(text: &str, period: usize) -> bool {
    let head = text.get(..period).unwrap_or_default();
    let window: Vec<(usize, char)> = head
        .char_indices()
        .rev()
        .take(12)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let end = match window.last() {
        Some((i, '\n')) => *i,
        _ => period,
    };
    let chars: Vec<(usize, char)> = window.into_iter().filter(|(i, _)| *i < end).collect();
    let start = chars.iter().enumerate().find_map(|(index, (i, c))| {
        let tail = chars.get(index + 1..).unwrap_or_default();
        let fits = is_letterish(*c)
            && tail.len() <= 10
            && tail.iter().all(|(_, t)| is_word(*t) || *t == '.');
        fits.then_some(*i)
    });
    let Some(start) = start else {
        return false;
    };
    let token = text.get(start..end).unwrap_or_default();
    token.contains('.')
        || ABBREVIATIONS.contains(&py_lower(token).as_str())
        || token.chars().count() == 1
}

#[cfg(test)]
mod tests {
    use super::sentence_spans;

    #[test]
    fn splits_at_marks_not_inside_atoms_or_abbreviations() {
        let text = "Revenue rose approx. 5%. See Fig. 3! Done?! 3. März";
        let spans = sentence_spans(text, &[(45, 52)]);
        let parts: Vec<&str> = spans.iter().map(|(a, b)| &text[*a..*b]).collect();
        assert_eq!(
            parts,
            [
                "Revenue rose approx. 5%.",
                " See Fig. 3!",
                " Done?!",
                " 3. März"
            ]
        );
    }

    #[test]
    fn line_breaks_and_marks_among_non_ascii_text() {
        let text = "Prix 5 €. Über\nNeu!Ende. ok";
        let spans = sentence_spans(text, &[]);
        let parts: Vec<&str> = spans.iter().map(|(a, b)| &text[*a..*b]).collect();
        assert_eq!(parts, ["Prix 5 €.", " Über\n", "Neu!Ende.", " ok"]);
    }
}

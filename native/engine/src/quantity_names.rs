//! Key and header names that name no quantity (`operand_families.names_no_quantity`): ids, years,
//! dates, codes and minor units, whose figures a sum or a table never combines. Shared by the
//! JSON table reader (a record's excluded columns) and the operand families.

/// Key words that name what is not a quantity: a sum of two order ids or two years means nothing.
const NOT_QUANTITIES: [&str; 21] = [
    "id",
    "ids",
    "uuid",
    "guid",
    "year",
    "years",
    "yr",
    "date",
    "dates",
    "zip",
    "postcode",
    "postal",
    "phone",
    "code",
    "version",
    "timestamp",
    "ts",
    "epoch",
    "cent",
    "cents",
    "minor",
];

/// Whether a key or header names identifiers, years, dates or minor units (`employee_id`).
pub fn names_no_quantity(name: &str) -> bool {
    key_tokens(name).any(|token| {
        let lowered = token.to_ascii_lowercase();
        NOT_QUANTITIES.contains(&lowered.as_str())
    })
}

/// Python's `re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)` (ASCII classes): a capital and
/// its lowercase run, a lowercase run, or a run of capitals less the one starting a word
/// ("HTMLParser": "HTML", "Parser").
fn key_tokens(name: &str) -> impl Iterator<Item = &str> {
    let bytes = name.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            let start = at;
            let upper = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_uppercase);
            let lower = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_lowercase);
            let run = |mut i: usize, class: &dyn Fn(usize) -> bool| {
                while class(i) {
                    i += 1;
                }
                i
            };
            let end = if lower(start) || (upper(start) && lower(start + 1)) {
                Some(run(start + 1, &lower))
            } else if upper(start) {
                // The capitals before a lowercase letter, less the last (it starts a word).
                let capitals = run(start, &upper);
                let end = if lower(capitals) {
                    capitals - 1
                } else {
                    capitals
                };
                Some(end).filter(|end| *end > start)
            } else {
                None
            };
            match end {
                Some(end) => {
                    at = end;
                    return name.get(start..end);
                }
                None => at += 1,
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_years_and_minor_units_name_no_quantity() {
        assert!(names_no_quantity("employee_id"));
        assert!(names_no_quantity("orderID"));
        assert!(names_no_quantity("fiscalYear"));
        assert!(names_no_quantity("amount_cents"));
        assert!(!names_no_quantity("revenue"));
        assert!(!names_no_quantity("valid")); // "valid" holds "id" but is one token
        assert_eq!(
            key_tokens("HTMLParser x2Yz").collect::<Vec<_>>(),
            ["HTML", "Parser", "x", "Yz"]
        );
    }
}

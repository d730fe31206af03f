//! The engine's vocabularies, defined once: verdicts, reasons, labels, operations, truncation
//! reasons, label rules and atom kinds. Each `as_str` is the string the Python API and `to_dict()` use
//! (`otel_groundedness/scoring/results.py`, `atoms.py`); a `match` over them has no fall-through.

macro_rules! vocabulary {
    ($(#[$doc:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($variant),+
        }

        impl $name {
            /// Every member, in the order the Python vocabulary lists them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The member's name in the Python API.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// The member named `text`, if any.
            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

vocabulary! {
    /// The kind of a hard-data atom. Where candidates overlap, the registry's priority decides.
    AtomKind {
        Money => "money",
        Percent => "percent",
        Number => "number",
        Date => "date",
        Identifier => "identifier",
        Time => "time",
    }
}

vocabulary! {
    /// The verdict of one answer atom.
    Verdict {
        Supported => "supported",
        Contradicted => "contradicted",
        Unsupported => "unsupported",
    }
}

vocabulary! {
    /// How an answer figure was computed from evidence figures.
    DerivedOperation {
        Sum => "sum",
        Difference => "difference",
        PctChange => "pct_change",
        Ratio => "ratio",
        Average => "average",
        Product => "product",
        PpDifference => "pp_difference",
    }
}

vocabulary! {
    /// Why an atom got its verdict.
    Reason {
        Exact => "exact",
        Reformatted => "reformatted",
        WithinPrecision => "within_precision",
        DerivedSum => "derived_sum",
        DerivedDifference => "derived_difference",
        DerivedPctChange => "derived_pct_change",
        DerivedRatio => "derived_ratio",
        DerivedAverage => "derived_average",
        DerivedProduct => "derived_product",
        DerivedPpDifference => "derived_pp_difference",
        DigitTransposition => "digit_transposition",
        DigitChanged => "digit_changed",
        DigitDropped => "digit_dropped",
        DigitAdded => "digit_added",
        MagnitudeMismatch => "magnitude_mismatch",
        SignFlip => "sign_flip",
        CurrencyMismatch => "currency_mismatch",
        ValueChanged => "value_changed",
        DateComponentChanged => "date_component_changed",
        IdentifierEdit => "identifier_edit",
        TimeMismatch => "time_mismatch",
        TimezoneMismatch => "timezone_mismatch",
        NotFound => "not_found",
        MorePreciseThanEvidence => "more_precise_than_evidence",
    }
}

vocabulary! {
    /// The label of a whole answer.
    Label {
        Grounded => "grounded",
        PartiallyGrounded => "partially_grounded",
        Ungrounded => "ungrounded",
        NoFactualContent => "no_factual_content",
        NoEvidence => "no_evidence",
    }
}

vocabulary! {
    /// Why evidence was read incompletely, or as flat text instead of JSON.
    TruncationReason {
        MaxEvidenceBytes => "max_evidence_bytes",
        MaxDepth => "max_depth",
        UnparseableJson => "unparseable_json",
        JsonTooDeep => "json_too_deep",
        ContentTruncated => "content_truncated",
    }
}

vocabulary! {
    /// Which rule's figure drives an answer's label.
    LabelRule {
        AtomRatio => "atom_ratio",
        Strict => "strict",
        Sentence => "sentence",
    }
}

impl DerivedOperation {
    /// The reason a figure derived by this operation is supported with.
    pub const fn reason(self) -> Reason {
        match self {
            DerivedOperation::Sum => Reason::DerivedSum,
            DerivedOperation::Difference => Reason::DerivedDifference,
            DerivedOperation::PctChange => Reason::DerivedPctChange,
            DerivedOperation::Ratio => Reason::DerivedRatio,
            DerivedOperation::Average => Reason::DerivedAverage,
            DerivedOperation::Product => Reason::DerivedProduct,
            DerivedOperation::PpDifference => Reason::DerivedPpDifference,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_member_parses_back() {
        for kind in AtomKind::ALL {
            assert_eq!(AtomKind::parse(kind.as_str()), Some(*kind));
        }
        for reason in Reason::ALL {
            assert_eq!(Reason::parse(reason.as_str()), Some(*reason));
        }
        assert_eq!(Reason::parse("nope"), None);
    }

    #[test]
    fn each_operation_has_its_own_reason() {
        for operation in DerivedOperation::ALL {
            assert_eq!(
                operation.reason().as_str(),
                format!("derived_{}", operation.as_str())
            );
        }
    }
}

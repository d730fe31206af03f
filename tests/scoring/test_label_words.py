"""Label words: a plural in the answer ties to the singular in the evidence, and back."""

from __future__ import annotations

import pytest

from otel_groundedness._native import json_words, window_words, words


@pytest.mark.parametrize(
    ("plural", "singular"),
    [
        ("invoices", "invoice"),
        ("quantities", "quantity"),
        ("policies", "policy"),
        ("addresses", "address"),
        ("taxes", "tax"),
        ("batches", "batch"),
        ("refunds", "refund"),
        # Singulars in "-che" and "-ie" meet the "-ches" and "-ies" plural rules halfway.
        ("caches", "cache"),
        ("niches", "niche"),
        ("movies", "movie"),
        ("calories", "calorie"),
    ],
)
def test_a_plural_and_its_singular_are_one_label_word(plural: str, singular: str) -> None:
    assert words(plural) == words(singular) == words(singular.capitalize())


def test_words_that_only_look_plural_stay_whole() -> None:
    assert words("business address status") == {"business", "address", "status"}


def test_a_plural_in_the_answer_ties_to_a_singular_json_key() -> None:
    answer = "Stock check: 4,821 quantities on hand."
    start = answer.index("4,821")
    assert window_words(answer, start, start + 5) & json_words(["items", "quantity"], None) == {"quantity"}

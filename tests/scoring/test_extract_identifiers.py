"""Identifier atoms: e-mails, URLs, ticket codes, UUIDs, IPs, versions, hashes, phones."""

from __future__ import annotations

import pytest

from otel_groundedness.scoring.atoms import AtomKind
from tests.scoring.native_parts import Identifier, extract_atoms


def identifiers_in(text: str, **options: object) -> list[tuple[str, str, str]]:
    found = []
    for atom in extract_atoms(text, **options):  # type: ignore[arg-type]
        assert text[atom.start : atom.end] == atom.text
        if atom.kind == "identifier":
            assert isinstance(atom.value, Identifier)
            found.append((atom.text, atom.value.normalized, atom.value.shape))
    return found


@pytest.mark.parametrize(
    ("text", "span", "normalized", "shape"),
    [
        ("mail Bob.Smith@Example.COM.", "Bob.Smith@Example.COM", "bob.smith@example.com", "email"),
        ("see https://example.com/a/b.", "https://example.com/a/b", "example.com/a/b", "url"),
        ("(see https://example.com/a_(b))", "https://example.com/a_(b)", "example.com/a_(b)", "url"),
        ("(https://example.com/x)", "https://example.com/x", "example.com/x", "url"),
        ("at www.example.com/path, then", "www.example.com/path", "www.example.com/path", "url"),
        ("https://Example.COM/Path/?", "https://Example.COM/Path/", "example.com/Path", "url"),
        ("invoice INV-2210.", "INV-2210", "INV-2210", "ticket"),
        ("invoice inv-2210", "inv-2210", "INV-2210", "ticket"),
        ("JIRA-1234 is open", "JIRA-1234", "JIRA-1234", "ticket"),
        # A code of one or two digits is a ticket behind a capitalised prefix (a Jira key, ORD-7).
        ("ticket PROJ-12 is open", "PROJ-12", "PROJ-12", "ticket"),
        ("order ORD-7 shipped", "ORD-7", "ORD-7", "ticket"),
        ("order ORD-2024-0042", "ORD-2024-0042", "ORD-2024-0042", "ticket"),
        ("CVE-2024-12345 fixed", "CVE-2024-12345", "CVE-2024-12345", "ticket"),
        ("ticket #4521", "#4521", "#4521", "ticket"),
        (
            "id F47AC10B-58CC-4372-A567-0E02B2C3D479",
            "F47AC10B-58CC-4372-A567-0E02B2C3D479",
            "f47ac10b-58cc-4372-a567-0e02b2c3d479",
            "uuid",
        ),
        (
            "id 550e8400-e29b-41d4-a716-446655440000",
            "550e8400-e29b-41d4-a716-446655440000",
            "550e8400-e29b-41d4-a716-446655440000",
            "uuid",
        ),
        ("host 10.0.0.1.", "10.0.0.1", "10.0.0.1", "ip"),
        ("host 192.168.001.010", "192.168.001.010", "192.168.1.10", "ip"),
        ("release v1.2.3", "v1.2.3", "1.2.3", "version"),
        ("release 1.2.3", "1.2.3", "1.2.3", "version"),
        ("release v2.0", "v2.0", "2.0", "version"),
        ("release 2.4b0", "2.4b0", "2.4b0", "version"),
        ("commit a3f5c9d", "a3f5c9d", "a3f5c9d", "hash"),
        ("commit 3F2A9C1D", "3F2A9C1D", "3f2a9c1d", "hash"),
        ("sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", None, None, "hash"),
    ],
)
def test_identifier_shapes(text: str, span: str | None, normalized: str | None, shape: str) -> None:
    (found,) = identifiers_in(text)
    assert found[2] == shape
    if span is not None:
        assert found[:2] == (span, normalized)


@pytest.mark.parametrize(
    "text",
    [
        "(555) 123-4567",
        "555-123-4567",
        "+1 555 123 4567",
        "555.123.4567",
        "1-555-123-4567",
        "+1 (555) 123-4567",
    ],
)
def test_phone_forms_normalise_to_the_same_digits(text: str) -> None:
    assert identifiers_in(f"call {text} now") == [(text, "5551234567", "phone")]


def test_international_phone_keeps_its_country_code() -> None:
    assert identifiers_in("call +44 20 7946 0958") == [("+44 20 7946 0958", "+442079460958", "phone")]


@pytest.mark.parametrize(
    "text",
    [
        "COVID-19",
        "SARS-CoV-2",
        "GPT-4",
        "GPT-4o",
        "ISO-8601",
        "UTF-8",
        "MP3",
        "SHA-256",
        "proj-12",
        "Phase-2",
        "AK-47",
        "WD-40",
        "IL-6",
    ],
)
def test_well_known_names_are_not_identifiers(text: str) -> None:
    assert extract_atoms(f"the {text} case", min_number_digits=1) == []


@pytest.mark.parametrize("text", ["deadbeef", "999.1.1.1", "ab12-cd34", "http://:", "www."])
def test_near_misses_are_not_identifiers(text: str) -> None:
    assert identifiers_in(text) == []


def test_digits_only_token_is_a_number_not_a_hash() -> None:
    assert [(a.kind, a.text) for a in extract_atoms("id 1234567")] == [("number", "1234567")]


@pytest.mark.parametrize(
    "text",
    [
        "Call 555-123-4567 today",
        "See https://shop.example.com/orders/12345/items/2025 now",
        "Write to ops.4812@example.com",
        "Order ORD-2024-0042 shipped",
        "Host 192.168.10.20 is up",
        "Build 550e8400-e29b-41d4-a716-446655440000 ran",
    ],
)
def test_identifiers_are_never_also_numbers_or_dates(text: str) -> None:
    atoms = extract_atoms(text, min_number_digits=1)
    assert [a.kind for a in atoms] == ["identifier"]


def test_disabled_identifiers_still_shadow_their_digits() -> None:
    only_numbers: tuple[AtomKind, ...] = ("number",)
    atoms = extract_atoms("Call 555-123-4567 about 4,812 units", kinds=only_numbers)
    assert [(a.kind, a.text) for a in atoms] == [("number", "4,812")]

"""Times of day through ``score()``: clock forms, zones, ISO timestamps in the evidence, and what
must not read as a time (ratios, scores, durations, verse numbers, bare decimals)."""

from __future__ import annotations

from typing import Any

import pytest

from otel_groundedness.scoring import score

FLIGHT: dict[str, Any] = {"flight": "UA1234", "departs_at": "2025-04-15T14:05:00-07:00", "boarding": "13:35"}
MEETING: dict[str, Any] = {"event": "Quarterly review", "starts_at": "2025-04-15T14:05:00Z"}


def _times(answer: str, evidence: Any) -> list[tuple[str, str, str, str]]:
    report = score(answer, [evidence])
    return [(v.text, v.verdict, v.reason, str(v.value)) for v in report.verdicts if v.kind == "time"]


@pytest.mark.parametrize(
    ("answer", "written", "value"),
    [
        ("The review starts at 2:05 PM UTC.", "2:05 PM UTC", "14:05 UTC"),
        ("The review starts at 14:05 UTC.", "14:05 UTC", "14:05 UTC"),
        ("The review starts at 14:05Z.", "14:05Z", "14:05 UTC"),
        ("The review starts at 2:05 p.m. GMT.", "2:05 p.m. GMT", "14:05 UTC"),
        ("The review starts at 2:05 pm.", "2:05 pm", "14:05"),
        ("The review starts at 14:05.", "14:05", "14:05"),
        ("The review starts at 10:05 a.m. EDT.", "10:05 a.m. EDT", "10:05 EDT"),
        ("The review starts at 7:05 AM PT.", "7:05 AM PT", "07:05 PT"),
    ],
)
def test_an_iso_timestamp_supports_the_same_time_written_or_converted(
    answer: str, written: str, value: str
) -> None:
    assert _times(answer, MEETING) == [(written, "supported", "reformatted", value)]


def test_a_local_time_is_supported_by_a_timestamp_with_its_offset() -> None:
    found = _times("Flight UA 1234 departs at 2:05 PM PT; boarding starts 1:35 pm.", FLIGHT)
    assert found == [
        ("2:05 PM PT", "supported", "reformatted", "14:05 PT"),
        ("1:35 pm", "supported", "reformatted", "13:35"),
    ]
    assert _times("It departs at 21:05 UTC.", FLIGHT) == [
        ("21:05 UTC", "supported", "reformatted", "21:05 UTC")
    ]


def test_the_timestamp_is_still_a_date() -> None:
    report = score("The review is on April 15, 2025.", [MEETING])
    assert [(v.kind, v.verdict) for v in report.verdicts] == [("date", "supported")]


def test_exact_time_in_text_evidence() -> None:
    assert _times("Doors open at 19:30.", "Doors open at 19:30, show at 20:00.") == [
        ("19:30", "supported", "exact", "19:30")
    ]


@pytest.mark.parametrize(
    ("answer", "written"),
    [
        ("The review starts at 3:05 PM UTC.", "3:05 PM UTC"),
        ("The review starts at 2:50 PM.", "2:50 PM"),
        ("The review starts at 2:05 AM.", "2:05 AM"),
        ("The review starts at 8:05 AM PT.", "8:05 AM PT"),
    ],
)
def test_a_changed_hour_or_minute_is_contradicted(answer: str, written: str) -> None:
    found = _times(answer, MEETING)
    assert [(text, verdict, reason) for text, verdict, reason, _ in found] == [
        (written, "contradicted", "time_mismatch")
    ]
    report = score(answer, [MEETING])
    assert report.contradicted[0].nearest_evidence == "2025-04-15T14:05:00Z"


def test_a_changed_zone_is_a_timezone_mismatch() -> None:
    found = _times("The review starts at 2:05 PM PT.", MEETING)
    assert [(text, verdict, reason) for text, verdict, reason, _ in found] == [
        ("2:05 PM PT", "contradicted", "timezone_mismatch")
    ]
    found = _times("It departs at 2:05 PM UTC.", FLIGHT)
    assert [(verdict, reason) for _, verdict, reason, _ in found] == [("contradicted", "timezone_mismatch")]


def test_a_time_the_evidence_does_not_hold_is_unsupported() -> None:
    assert _times("The review starts at 9:40 AM.", MEETING) == [
        ("9:40 AM", "unsupported", "not_found", "09:40")
    ]


@pytest.mark.parametrize(
    "answer",
    [
        "The home side won 3:2.",
        "Shot in 16:9 widescreen.",
        "As John 3:16 says.",
        "She ran the half marathon in 1:30:00.",
        "Revenue grew 7.30 percent.",
        "Version 1.2.3 shipped.",
        "The 13 pm slot does not exist.",
        "A 25:00 clock is no clock.",
        "It costs $7.30 pm.",
    ],
)
def test_ratios_scores_durations_and_decimals_are_not_times(answer: str) -> None:
    report = score(answer, ["nothing to see"])
    assert [v.text for v in report.verdicts if v.kind == "time"] == []


def test_a_bare_decimal_stays_a_number_and_a_clock_cue_makes_it_a_time() -> None:
    from otel_groundedness.scoring import GroundednessPolicy

    policy = GroundednessPolicy(min_number_digits=1)
    report = score("Shares closed at 7.30 after opening at 7.30pm.", ["7.30"], policy=policy)
    assert [(v.kind, v.text) for v in report.verdicts] == [("number", "7.30"), ("time", "7.30pm")]


def test_times_can_be_switched_off_by_the_policy() -> None:
    from otel_groundedness.scoring import GroundednessPolicy

    policy = GroundednessPolicy(enabled_kinds=("date",))
    report = score("The review is at 14:05 UTC on 2025-04-15.", [MEETING], policy=policy)
    assert [v.kind for v in report.verdicts] == ["date"]


def test_a_range_of_clocks_reads_both_ends() -> None:
    found = _times(
        "The desk is staffed 9:00-17:00 on weekdays.", "Desk hours: 09:00 to 17:00, Monday-Friday."
    )
    assert [(text, verdict, value) for text, verdict, _, value in found] == [
        ("9:00", "supported", "09:00"),
        ("17:00", "supported", "17:00"),
    ]

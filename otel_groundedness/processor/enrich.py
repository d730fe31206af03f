"""Build the enriched copy of an ended span: its own data plus evaluation attributes and an event.

A ``ReadableSpan`` is immutable at ``on_end``, so the scored span is a new ``ReadableSpan`` sharing
every original value by reference (the exported answer text stays byte-identical) and keeping the
original dropped-attribute/event/link counts.
"""

from __future__ import annotations

from collections.abc import Mapping

from opentelemetry.attributes import BoundedAttributes
from opentelemetry.sdk.trace import Event, ReadableSpan
from opentelemetry.sdk.util import BoundedList
from opentelemetry.trace import Link
from opentelemetry.util.types import AttributeValue


def enriched_copy(
    span: ReadableSpan,
    attributes: Mapping[str, AttributeValue],
    event: tuple[str, Mapping[str, AttributeValue]] | None,
    defaults: Mapping[str, AttributeValue] | None = None,
) -> ReadableSpan:
    """A copy of ``span`` with ``attributes`` added, ``defaults`` added where the span has no value of
    its own (an instrumentation's value is never replaced) and, if given, one more event (name,
    attributes).

    The copy is not re-limited: the added attributes never push out the span's own ones.
    """
    merged = BoundedAttributes(
        maxlen=None, attributes={**(defaults or {}), **(span.attributes or {}), **attributes}, immutable=True
    )
    merged.dropped = span.dropped_attributes
    events: BoundedList[Event] = BoundedList.from_seq(None, span.events)
    if event is not None:
        name, event_attributes = event
        # Stamped at the span end so that viewers draw it inside the span it evaluates.
        events.append(Event(name, dict(event_attributes), span.end_time))
    events.dropped = span.dropped_events
    links: BoundedList[Link] = BoundedList.from_seq(None, span.links)
    links.dropped = span.dropped_links
    return ReadableSpan(
        name=span.name,
        context=span.context,
        parent=span.parent,
        resource=span.resource,
        attributes=merged,
        events=events,
        links=links,
        kind=span.kind,
        status=span.status,
        start_time=span.start_time,
        end_time=span.end_time,
        instrumentation_scope=span.instrumentation_scope,
    )

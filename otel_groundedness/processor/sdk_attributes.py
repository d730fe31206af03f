"""Attribute values of SDK spans and events, read on the application thread without the SDK wrappers.

``ReadableSpan.attributes`` wraps the span's ``BoundedAttributes`` in a ``MappingProxyType``, and
``BoundedAttributes`` has neither ``__contains__`` nor ``values``: a membership miss raises and
catches a ``KeyError`` inside ``Mapping.__contains__``, and a values pass copies the keys under a
lock and looks each one up again. The span has ended when these run, so nothing writes to the
backing dict any more; it is only read.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan

_NO_ATTRIBUTES: Mapping[str, Any] = MappingProxyType({})


def backing(attributes: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """The dict behind ``BoundedAttributes`` (any other mapping as it is; None as empty)."""
    if attributes is None:
        return _NO_ATTRIBUTES
    raw: Mapping[str, Any] = getattr(attributes, "_dict", attributes)
    return raw


def raw_attributes(span: ReadableSpan) -> Mapping[str, Any]:
    """The span's attribute values, without the ``MappingProxyType`` that ``.attributes`` adds."""
    raw: Mapping[str, Any] | None = getattr(span, "_attributes", None)
    return backing(raw if raw is not None else span.attributes)

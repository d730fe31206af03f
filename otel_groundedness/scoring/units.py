"""Units of measure one dimension apart by a fixed factor, and the unit or magnitude a JSON key names.

An answer often converts what a tool returned (``{"weight_g": 2500}`` as ``2.5 kg``,
``{"size_bytes": 2621440}`` as ``2.5 MB``, ``{"p99_ms": 1200}`` as ``1.2s``); read without the
unit the key names, those figures look a thousand times off. ``in_unit`` gives the readings of an
evidence value in the answer's unit. Byte units written in decimal (``MB``) are also read in
binary (``MiB``), as software reports them. Financial data names its magnitude the same way
(``{"revenue_usd_millions": 4200}`` is $4.2 billion): ``key_magnitude`` reads it.
"""

from __future__ import annotations

import functools
import re

# unit -> (dimension, factor to the dimension's base unit)
_SCALES: dict[str, tuple[str, float]] = {
    "ns": ("time", 1e-9), "µs": ("time", 1e-6), "μs": ("time", 1e-6), "us": ("time", 1e-6),
    "ms": ("time", 1e-3), "s": ("time", 1.0), "sec": ("time", 1.0), "secs": ("time", 1.0),
    "min": ("time", 60.0), "mins": ("time", 60.0), "h": ("time", 3600.0), "hr": ("time", 3600.0),
    "hrs": ("time", 3600.0), "d": ("time", 86400.0),
    "mg": ("mass", 1e-3), "g": ("mass", 1.0), "kg": ("mass", 1e3), "lb": ("mass", 453.59237),
    "lbs": ("mass", 453.59237), "oz": ("mass", 28.349523125),
    "mm": ("length", 1e-3), "cm": ("length", 1e-2), "m": ("length", 1.0), "km": ("length", 1e3),
    "ft": ("length", 0.3048), "mi": ("length", 1609.344),
    "B": ("bytes", 1.0), "kB": ("bytes", 1e3), "KB": ("bytes", 1e3), "MB": ("bytes", 1e6),
    "GB": ("bytes", 1e9), "TB": ("bytes", 1e12), "PB": ("bytes", 1e15), "KiB": ("bytes", 2.0**10),
    "MiB": ("bytes", 2.0**20), "GiB": ("bytes", 2.0**30), "TiB": ("bytes", 2.0**40),
    "bps": ("bitrate", 1.0), "kbps": ("bitrate", 1e3), "Kbps": ("bitrate", 1e3),
    "Mbps": ("bitrate", 1e6), "Gbps": ("bitrate", 1e9),
    "Hz": ("frequency", 1.0), "kHz": ("frequency", 1e3), "MHz": ("frequency", 1e6),
    "GHz": ("frequency", 1e9),
    "W": ("power", 1.0), "kW": ("power", 1e3), "MW": ("power", 1e6), "GW": ("power", 1e9),
    "Wh": ("energy", 1.0), "kWh": ("energy", 1e3), "MWh": ("energy", 1e6), "GWh": ("energy", 1e9),
}  # fmt: skip
# Decimal byte units, also read as their binary twins.
_BINARY_TWIN = {"kB": 2.0**10, "KB": 2.0**10, "MB": 2.0**20, "GB": 2.0**30, "TB": 2.0**40, "PB": 2.0**50}

# The last word of a JSON key, lower-cased, when it names a unit ("weight_g", "durationMs").
_KEY_UNITS: dict[str, str] = {
    "ns": "ns", "nanos": "ns", "nanoseconds": "ns", "us": "us", "micros": "us",
    "microseconds": "us", "ms": "ms", "millis": "ms", "milliseconds": "ms", "s": "s", "sec": "s",
    "secs": "s", "seconds": "s", "min": "min", "mins": "min", "minutes": "min", "h": "h",
    "hr": "h", "hrs": "h", "hours": "h", "days": "d",
    "mg": "mg", "g": "g", "grams": "g", "kg": "kg", "kilograms": "kg", "lb": "lb", "lbs": "lb",
    "oz": "oz", "mm": "mm", "cm": "cm", "m": "m", "meters": "m", "metres": "m", "km": "km",
    "ft": "ft", "feet": "ft", "mi": "mi", "miles": "mi",
    "b": "B", "bytes": "B", "kb": "kB", "mb": "MB", "gb": "GB", "tb": "TB", "kib": "KiB",
    "mib": "MiB", "gib": "GiB", "tib": "TiB",
    "bps": "bps", "kbps": "kbps", "mbps": "Mbps", "gbps": "Gbps",
    "hz": "Hz", "khz": "kHz", "mhz": "MHz", "ghz": "GHz",
    "w": "W", "watts": "W", "kw": "kW", "wh": "Wh", "kwh": "kWh",
}  # fmt: skip
# The last word of a JSON key, lower-cased, when it names the power of ten its figures are in.
_KEY_MAGNITUDES: dict[str, int] = {
    "thousands": 3, "k": 3, "millions": 6, "m": 6, "mm": 6, "mn": 6, "mln": 6,
    "billions": 9, "bn": 9, "b": 9, "bln": 9, "trillions": 12, "tn": 12,
}  # fmt: skip
# A key's words: runs of capitals not starting a capitalised word, or a capitalised or lower-case word.
_KEY_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
_MAX_KEY_CHARS = 64


def dimension(unit: str | None) -> str | None:
    """The dimension of a unit this module converts (``"mass"`` for ``kg``), else None."""
    scale = _SCALES.get(unit) if unit is not None else None
    return scale[0] if scale is not None else None


def key_unit(key: object) -> str | None:
    """The unit a JSON key's last word names (``weight_g`` -> ``g``, ``durationMs`` -> ``ms``)."""
    word = _last_word(key)
    return _KEY_UNITS.get(word) if word is not None else None


def _last_word(key: object) -> str | None:
    """A key's last word, lower-cased; None for a key of one word ("ms", "m" name no quantity)."""
    if not isinstance(key, str) or len(key) > _MAX_KEY_CHARS:
        return None
    return _last_word_of(key)


@functools.lru_cache(maxsize=4096)  # a tool's records repeat their keys call after call
def _last_word_of(key: str) -> str | None:
    words = _KEY_WORDS.findall(key)
    return words[-1].lower() if len(words) >= 2 else None


def key_magnitude(key: object) -> int | None:
    """The power of ten a JSON key's last word names (``revenue_usd_millions``, ``revenueInThousands``)."""
    word = _last_word(key)
    return _KEY_MAGNITUDES.get(word) if word is not None else None


def in_unit(value: float, unit: str, target: str) -> tuple[float, ...]:
    """``value`` in ``unit`` read in ``target`` (same dimension, other unit): one reading, or two
    when both are byte units written in decimal or binary; () when they do not convert."""
    source, wanted = _SCALES.get(unit), _SCALES.get(target)
    if source is None or wanted is None or source[0] != wanted[0] or unit == target:
        return ()
    readings = [value * source[1] / wanted[1]]
    if unit in _BINARY_TWIN or target in _BINARY_TWIN:
        binary = value * _BINARY_TWIN.get(unit, source[1]) / _BINARY_TWIN.get(target, wanted[1])
        if binary != readings[0]:
            readings.append(binary)
    return tuple(readings)

# Type stub of the native scoring engine (native/python/src), built by maturin.

def engine_version() -> str: ...
def vocabularies() -> list[tuple[str, list[str]]]: ...

# The evidence walk (native/engine/src/corpus.rs), in plain data for the differential tests
# (tests/native/test_evidence_differential.py): (fragments, scalar_values, scalar_rows,
# has_tool_evidence, reasons, arrays).
def collect(
    items: object, prompt: str | None, max_evidence_bytes: int, every_string: bool
) -> tuple[
    list[tuple[object, ...]], list[float], list[tuple[object, ...]], bool, list[str], list[tuple[object, ...]]
]: ...

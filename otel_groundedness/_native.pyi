# Type stub of the native scoring engine (native/python/src), built by maturin.

def engine_version() -> str: ...
def vocabularies() -> list[tuple[str, list[str]]]: ...

# rules.rs: (atom ratio, sentence score, strict pass, label) of one answer's verdicts.
def rule_figures(
    rule: str, verdicts: list[str], sentence_of: list[int], min_alert_score: float
) -> tuple[float, float, bool, str]: ...

# policy.rs: a policy as the engine reads it, and the engine's defaults, in to_dict() form.
def policy_as_read(policy: object) -> dict[str, object]: ...
def default_policy() -> dict[str, object]: ...

# derivations.rs: math.fsum, and the pair search and candidate count of scoring/derivations.py.
def fsum(values: list[float]) -> float: ...
def derivation_pairs(
    name: str,
    ordered: list[int],
    values: list[float],
    currencies: list[str | None],
    value: float,
    change: float,
    reach: float,
    percent: bool,
) -> tuple[float, str | None, list[int], float]: ...
def derivation_candidates(size: int, operations: list[str], whole: bool) -> int: ...

# boundary.rs: engine work runs without the GIL; a panic surfaces as this error, never further.
class NativeEngineError(RuntimeError): ...

def boundary_check(value: int, panic: bool, hold_ms: int) -> int: ...

# numeric_group.rs: range queries of one sorted group; per query, positions read and budget left.
def numeric_group_queries(
    values: list[float], queries: list[tuple[object, ...]], units: int
) -> list[tuple[list[int], int]]: ...

# identifiers.rs: the identifier index (exact, one edit away, extending) and one-edit relations.
def identifier_queries(
    identifiers: list[tuple[str, str]], queries: list[tuple[str, str, str]], units: int
) -> list[tuple[list[int], int]]: ...
def one_edit_apart(first: str, second: str) -> bool: ...
def one_edit_numbers(digits: str) -> list[float]: ...

# dates.rs: the date index; per query, (("atom" | "scalar", position), matched reading)s and budget left.
_Reading = tuple[int | None, int | None, int | None]

def date_queries(
    atoms: list[list[_Reading]],
    scalars: list[tuple[float, bool]],
    queries: list[tuple[int, _Reading]],
    units: int,
) -> list[tuple[list[tuple[tuple[str, int], _Reading]], int]]: ...

"""The three hosts stand side by side over the shared packages: no host imports another, the shared
packages import no host, and ``processor/`` holds no import circle. Read from the source (every
import statement, including those under ``TYPE_CHECKING`` and inside functions)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = "otel_groundedness"
ROOT = Path(__file__).resolve().parents[1] / PACKAGE
HOSTS = frozenset({"processor", "replay", "gateway"})
# Built on the hosts: the command line, the demo, and the package's lazy public names.
APPLICATIONS = frozenset({"cli", "demo", "__init__", "__main__"})


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> Iterator[str]:
    """Every ``otel_groundedness`` module or name a file imports, as a dotted name."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            yield from (f"{base}.{alias.name}" for alias in node.names)


def area(name: str) -> str:
    """The top-level part of ``otel_groundedness`` a dotted name is in (a module name for files)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in ROOT.rglob("*.py")}


def internal_imports(path: Path) -> set[str]:
    return {name for name in imported(path) if name.split(".")[0] == PACKAGE}


def test_no_host_imports_another_and_shared_packages_import_no_host() -> None:
    crossings = []
    for name, path in modules().items():
        own = area(name)
        if own in APPLICATIONS:
            continue
        for target in internal_imports(path):
            other = area(target)
            if other in HOSTS and other != own:
                crossings.append(f"{name} imports {target}")
    assert crossings == []


def test_no_import_circle_inside_the_processor() -> None:
    known = modules()
    inside = {name for name in known if area(name) == "processor"}

    def resolved(target: str) -> str | None:
        # ``from package.module import name``: the module, or the package when the name is not a module.
        for candidate in (target, target.rpartition(".")[0]):
            if candidate in inside:
                return candidate
        return None

    graph = {
        name: {found for t in internal_imports(known[name]) if (found := resolved(t)) and found != name}
        for name in inside
    }
    circles = []
    for start in sorted(graph):
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    circles.append(" -> ".join([*path, start]))
                elif nxt not in path and nxt > start:  # each circle once, from its least member
                    stack.append((nxt, [*path, nxt]))
    assert circles == []


def test_the_scan_sees_imports_of_every_form() -> None:
    # A check that reads nothing passes anything: this file's neighbours must register.
    gateway_scorer = internal_imports(ROOT / "gateway" / "scorer.py")
    assert f"{PACKAGE}.core.score_trace" in gateway_scorer
    assert any(area(name) == "processor" for name in internal_imports(ROOT / "__init__.py"))

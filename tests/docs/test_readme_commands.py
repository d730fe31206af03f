"""The command examples in README.md and docs/*.md print what the documents say they print.

Marker: a fenced block whose info string contains the word ``runnable``, as in ```` ```console runnable ````.
Inside it, a line starting with ``$ `` is a command (continued on the next line while it ends with a
backslash); the lines up to the next ``$ `` line or the closing fence are its expected output.
Each command runs with bash from the repository root, with this interpreter's ``bin`` directory (the
virtual environment's) first on PATH, stdout and stderr merged. The output must equal the block's text
byte for byte, except for whitespace at line ends, which is dropped from the output first (rich pads
centred table titles with spaces that editors strip from documents).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
MARKER = "runnable"
# Variables that make rich draw for a terminal even into a pipe; the documents show piped output.
_FORCE_TERMINAL = frozenset({"FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"})


@dataclass(frozen=True)
class Example:
    """One ``$ command`` of a runnable block and the output the document shows for it."""

    document: str
    line: int
    section: str
    command: str
    expected: str


def examples_in(text: str, document: str = "") -> list[Example]:
    """Every command of every runnable fenced block in ``text`` (a Markdown document)."""
    found: list[Example] = []
    lines = text.splitlines()
    section = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        fence = line.startswith("```") and MARKER in line[3:].split()
        i += 1
        if not fence:
            if line.startswith("```"):  # skip other fenced blocks whole: '#' lines inside are no headings
                while i < len(lines) and not lines[i].startswith("```"):
                    i += 1
                i += 1
            continue
        body: list[tuple[int, str]] = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1
        found.extend(_commands(body, document, section))
    return found


def _commands(body: list[tuple[int, str]], document: str, section: str) -> list[Example]:
    found: list[Example] = []
    j = 0
    while j < len(body):
        number, line = body[j]
        if not line.startswith("$ "):
            raise ValueError(f"{document}:{number}: runnable block line outside a command: {line!r}")
        command = [line[2:]]
        j += 1
        while command[-1].endswith("\\") and j < len(body):
            command.append(body[j][1])
            j += 1
        output: list[str] = []
        while j < len(body) and not body[j][1].startswith("$ "):
            output.append(body[j][1] + "\n")
            j += 1
        found.append(Example(document, number, section, "\n".join(command), "".join(output)))
    return found


ALL = [
    example
    for path in DOCUMENTS
    for example in examples_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
]


def test_parser_reads_commands_continuations_and_outputs() -> None:
    text = (
        "# Title\n```bash\n# not a heading\n$ ignored\n```\n## Usage\n"
        "```console runnable\n$ tool a \\\n    --b\nout 1\n\nout 2\n$ tool c\n```\n"
    )
    assert examples_in(text) == [
        Example("", 8, "Usage", "tool a \\\n    --b", "out 1\n\nout 2\n"),
        Example("", 13, "Usage", "tool c", ""),
    ]


def test_the_scoring_example_of_the_readme_is_checked() -> None:
    sections = {(example.document, example.section) for example in ALL}
    assert ("README.md", "How an answer is scored") in sections
    assert ("README.md", "Three ways in") in sections


@pytest.mark.parametrize("example", ALL, ids=[f"{example.document}:{example.line}" for example in ALL])
def test_command_prints_what_the_document_shows(example: Example) -> None:
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "otel-groundedness").exists(), f"run the tests with the venv's python: {bin_dir}"
    completed = subprocess.run(
        ["bash", "-c", example.command],
        cwd=ROOT,
        env={
            **{name: value for name, value in os.environ.items() if name not in _FORCE_TERMINAL},
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
        check=False,
    )
    output = "".join(line.rstrip() + "\n" for line in completed.stdout.splitlines())
    assert output == example.expected, f"{example.document}:{example.line} drifted from the real output"

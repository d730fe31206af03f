"""The native engine's vocabularies are the Python API's, member for member and in order."""

from __future__ import annotations

import ast
from importlib.metadata import version
from pathlib import Path
from typing import get_args

from otel_groundedness import _native
from otel_groundedness.scoring import atoms, policy, results


def test_the_engine_names_every_member_the_api_does() -> None:
    engine = dict(_native.vocabularies())
    assert engine == {
        "AtomKind": list(atoms.ATOM_KINDS),
        "Verdict": list(get_args(results.Verdict)),
        "DerivedOperation": list(results.DERIVED_OPERATIONS),
        "Reason": list(results.REASONS),
        "Label": list(get_args(results.Label)),
        "LabelRule": list(policy.LABEL_RULES),
        "TruncationReason": list(results.TRUNCATION_REASONS),
        "Locale": list(policy.SUPPORTED_LOCALES),
    }


def test_the_engine_and_the_package_release_together() -> None:
    assert _native.engine_version() == version("otel-groundedness")


def test_the_type_stub_names_what_the_module_has() -> None:
    stub = Path(_native.__file__).with_name("_native.pyi")
    declared = {
        node.name
        for node in ast.parse(stub.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef | ast.ClassDef)
    }
    assert declared == {name for name in dir(_native) if not name.startswith("_")}

"""Digests of a turn's answer and evidence: what a baseline turn is matched by when ids are new.

Re-generated traffic has new trace, span and tool-call ids, so ids are left out: the evidence digest
covers each item's kind, tool name and content, and the user prompt, in no particular order (parallel
tool calls may come back in another order). The answer digest folds whitespace, like the pairing
buffer's. Both are 16-byte BLAKE2b digests, written as 32 hex characters.
"""

from __future__ import annotations

import hashlib

from otel_groundedness.payload import DIGEST_BYTES, fingerprint, text_fingerprint
from otel_groundedness.records import Turn


def answer_digest(turn: Turn) -> str:
    return text_fingerprint(turn.answer).hex()


def evidence_digest(turn: Turn) -> str:
    items = sorted(fingerprint([item.kind, item.name, item.content]) for item in turn.evidence)
    prompt = b"" if turn.user_prompt is None else b"p" + text_fingerprint(turn.user_prompt)
    return hashlib.blake2b(b"".join(items) + prompt, digest_size=DIGEST_BYTES).hexdigest()

"""Deterministic groundedness scoring (stdlib only)."""

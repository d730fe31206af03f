"""Offline replay: recorded OTLP traces and logs scored with the same engine as the live processor."""

"""OpenTelemetry SDK shells: the span and log-record processors and their worker."""

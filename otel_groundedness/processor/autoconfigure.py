"""Zero-code path: an ``opentelemetry_configurator`` entry point for ``opentelemetry-instrument``.

It configures the SDK exactly like the stock configurator (``OTEL_TRACES_EXPORTER`` & co.). With
``OTEL_GROUNDEDNESS_ENABLED=true`` it also puts a ``GroundednessSpanProcessor`` in front of every
exporting span processor (one instance wrapping all of them, so each turn is scored once) and adds
its log-record companion to the ``LoggerProvider``. Metrics and evaluation records go through the
global meter and logger providers that the same configuration installs.
"""

from __future__ import annotations

from typing import Any

from opentelemetry.sdk._configuration import _OTelSDKConfigurator
from opentelemetry.sdk.trace import SpanProcessor, SynchronousMultiSpanProcessor
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter

from otel_groundedness.processor.config import enabled_from_env
from otel_groundedness.processor.span_processor import GroundednessSpanProcessor


class GroundednessConfigurator(_OTelSDKConfigurator):
    """The SDK configurator, with the groundedness processor wrapped around span export when enabled."""

    def _configure(self, **kwargs: Any) -> None:
        if not enabled_from_env():
            super()._configure(**kwargs)  # type: ignore[no-untyped-call]  # SDK method is unannotated
            return
        span_processors = list(kwargs.pop("span_processors", None) or ())
        log_record_processors = list(kwargs.pop("log_record_processors", None) or ())
        exporting = SynchronousMultiSpanProcessor()  # type: ignore[no-untyped-call]  # SDK lacks the annotation
        groundedness = GroundednessSpanProcessor(exporting)
        export_processor = kwargs.pop("export_span_processor", None) or BatchSpanProcessor

        def wrap_exporter(exporter: SpanExporter, *args: Any, **options: Any) -> SpanProcessor:
            exporting.add_span_processor(export_processor(exporter, *args, **options))
            # The provider gets a no-op in its place: the exporting processor is reached through us.
            return SpanProcessor()

        super()._configure(  # type: ignore[no-untyped-call]  # SDK method is unannotated
            span_processors=[*span_processors, groundedness],
            export_span_processor=wrap_exporter,
            log_record_processors=[*log_record_processors, groundedness.log_processor()],
            **kwargs,
        )

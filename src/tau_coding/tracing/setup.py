"""The process's one tracer provider, made the first time a session is traced, with an exporter
per destination: the JSONL file of ``--trace-file`` and OTLP over HTTP when
``OTEL_EXPORTER_OTLP_ENDPOINT`` (or ``..._TRACES_ENDPOINT``) is set. Spans are flushed and every
open span ended when the process exits.
"""

from __future__ import annotations

import atexit
from collections.abc import Callable, Mapping
from pathlib import Path

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

from tau_coding import __version__
from tau_coding.session.coding_session import CodingSession
from tau_coding.tracing.jsonl import JsonlSpanExporter
from tau_coding.tracing.spans import SessionTracer

_provider: TracerProvider | None = None
_tracers: list[SessionTracer] = []


def _shutdown() -> None:
    for tracer in _tracers:
        tracer.close()
    _tracers.clear()
    if _provider is not None:
        _provider.shutdown()


def tracer_provider(trace_file: str | None, environ: Mapping[str, str]) -> TracerProvider:
    """The provider of this process (made on the first call; later arguments are ignored)."""
    global _provider
    if _provider is None:
        resource = Resource.create({"service.name": environ.get("OTEL_SERVICE_NAME", "tau")})
        resource = resource.merge(Resource({"service.version": __version__}))
        provider = TracerProvider(resource=resource)
        if trace_file:
            provider.add_span_processor(SimpleSpanProcessor(JsonlSpanExporter(Path(trace_file))))
        if environ.get("OTEL_EXPORTER_OTLP_ENDPOINT") or environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"):
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        _provider = provider
        atexit.register(_shutdown)
    return _provider


def trace_session(
    session: CodingSession, trace_file: str | None, environ: Mapping[str, str]
) -> Callable[[], None]:
    """Trace ``session`` from now on; returns a function that ends its spans (also run at exit)."""
    tracer = SessionTracer(
        tracer_provider(trace_file, environ).get_tracer("tau_coding", __version__),
        session_id=session.session_id,
        model=lambda: (session.model.provider, session.model.id),
        attributes={"tau.batch.task_id": environ["TAU_BATCH_TASK_ID"]}
        if "TAU_BATCH_TASK_ID" in environ
        else None,
    )
    session.subscribe(tracer.on_event, deltas=False)  # spans need no streamed delta: no call per delta
    _tracers.append(tracer)
    return tracer.close

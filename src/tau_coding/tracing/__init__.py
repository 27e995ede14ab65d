"""OpenTelemetry traces of sessions: spans for the session, each turn, each model request (GenAI
semantic conventions) and each tool call, made by a subscriber to the session's events.

Off unless ``--trace-file`` is given or ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set; when off, no
module that imports OpenTelemetry is loaded. The SDK is the optional extra ``otel``.
docs/tracing.md has the span tree and the file format.
"""

from __future__ import annotations

from collections.abc import Mapping


def tracing_wanted(trace_file: str | None, environ: Mapping[str, str]) -> bool:
    """Whether this run traces at all; cheap, imports nothing."""
    if environ.get("OTEL_SDK_DISABLED", "").lower() == "true":
        return False
    return bool(
        trace_file
        or environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
        or environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    )

"""A span exporter that appends each finished span to a file as one JSON line.

Each line is one ``write`` on a file opened for appending, so several processes (the tasks of a
batch) may share one trace file without tearing each other's lines.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.trace import format_span_id, format_trace_id


def span_to_dict(span: ReadableSpan) -> dict[str, Any]:
    """The span's ids (hex), parent, name, kind, times (ns since the epoch), status, attributes."""
    context = span.get_span_context()
    parent = span.parent
    status = span.status
    out: dict[str, Any] = {
        "trace_id": format_trace_id(context.trace_id) if context else None,
        "span_id": format_span_id(context.span_id) if context else None,
        "parent_span_id": format_span_id(parent.span_id) if parent is not None else None,
        "name": span.name,
        "kind": span.kind.name,
        "start_time_unix_nano": span.start_time,
        "end_time_unix_nano": span.end_time,
        "status": {"code": status.status_code.name, "description": status.description},
        "attributes": dict(span.attributes or {}),
        "resource": dict(span.resource.attributes),
    }
    return out


class JsonlSpanExporter(SpanExporter):
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        if self._fd is None:
            return SpanExportResult.FAILURE
        for span in spans:
            os.write(self._fd, orjson.dumps(span_to_dict(span), option=orjson.OPT_APPEND_NEWLINE))
        return SpanExportResult.SUCCESS

    def shutdown(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True

"""Log every provider HTTP answer: status, request id and rate-limit headers, one JSON line each.

``after_provider_response`` is told once the status and headers arrive, before the stream is
read. The log is ``responseLogger.path`` (settings), else ``.tau/provider-responses.jsonl`` in
the project. A 429 also shows a notice with the server's ``retry-after``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from tau_coding.extensions import ExtensionAPI, ProviderResponseEvent

KEPT = ("x-request-id", "request-id", "retry-after", "openai-processing-ms")


def activate(tau: ExtensionAPI) -> None:
    @tau.on("after_provider_response")
    def log(event: ProviderResponseEvent) -> None:
        headers = {
            name: value
            for name, value in event.headers.items()
            if name in KEPT or name.startswith(("x-ratelimit-", "anthropic-ratelimit-"))
        }
        record = {
            "time": round(time.time(), 3),
            "provider": event.provider,
            "model": event.model,
            "status": event.status,
            "headers": headers,
        }
        path = Path(tau.setting("responseLogger.path") or tau.cwd / ".tau" / "provider-responses.jsonl")
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as out:  # one short line per answer: appends stay whole
            out.write(json.dumps(record) + "\n")
        if event.status == 429:
            wait = event.headers.get("retry-after")
            tau.notify(
                f"rate limited by {event.provider}" + (f"; retry after {wait}s" if wait else ""), "warning"
            )

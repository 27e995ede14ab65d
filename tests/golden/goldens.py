"""What the golden files hold, computed from the code: one definition for the tests and for
``python -m tests.golden.regenerate``.

- events/<api>/<provider>_<case>.jsonl: every recorded 200 response in tests/data/providers,
  fed through SseDecoder and the API's parser; one line per AssistantMessageEvent
  (``assistant_event_to_dict``), then ``{"finalMessage": ...}``; timestamps set to 0.
- errors/<api>.json: ``error_message(status, body)`` of every recorded error response.
- requests/<api>/<case>.json: ``build_request`` for the fixed contexts of requests.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tau_agent.stream_events import DoneEvent, ErrorEvent
from tau_agent.wire import message_to_dict
from tau_agent.wire_events import assistant_event_to_dict
from tau_ai.apis import wire_api
from tau_ai.model import Model
from tau_ai.sse import SseDecoder
from tau_ai.wire_api import HttpRequestSpec, WireApi

TESTS = Path(__file__).resolve().parent.parent
DATA = TESTS / "data" / "providers"
GOLDEN = TESTS / "golden"
Json = dict[str, Any]


@dataclass(frozen=True)
class Recording:
    provider: str
    name: str
    api: str
    status: int
    body: bytes
    model: Model

    @property
    def case(self) -> str:
        return f"{self.provider}_{self.name}"

    @property
    def wire(self) -> WireApi:
        return wire_api(self.api)


def fixture_api(provider: str, name: str) -> str | None:
    """Which wire API a recording belongs to (None: not one Tau speaks, e.g. Ollama's native API)."""
    if provider == "ollama" and name.startswith("native"):
        return None
    if name.startswith("responses_") or name.endswith("_responses"):
        return "openai-responses"
    if provider == "anthropic":
        return "anthropic-messages"
    if provider == "google" and not name.startswith("openai_compat"):
        return "google-generative-ai"
    if provider == "mistral":
        return "mistral-conversations"
    return "openai-completions"


def recordings() -> list[Recording]:
    out = []
    for meta_path in sorted(DATA.glob("*/*.meta.json")):
        meta = json.loads(meta_path.read_text())
        provider, name = meta_path.parent.name, meta_path.name.removesuffix(".meta.json")
        api = fixture_api(provider, name)
        if api is None:
            continue
        request = json.loads((meta_path.parent / meta["request_body_file"]).read_text())
        url = meta["request"]["url"]
        found = re.search(r"/models/([^:/?]+)", url)
        model_id = request.get("model") or (found.group(1) if found else "unknown")
        model = Model(id=model_id, api=api, provider=provider, base_url=url.split("?")[0])
        body = (meta_path.parent / meta["response_body_file"]).read_bytes()
        out.append(Recording(provider, name, api, meta["response"]["status"], body, model))
    return out


def stream_recordings() -> list[Recording]:
    return [r for r in recordings() if r.status == 200]


def error_recordings() -> list[Recording]:
    return [r for r in recordings() if r.status != 200]


def replay(recording: Recording, cuts: Iterable[int] = ()) -> list[Json]:
    """Feed the body split at ``cuts`` (byte offsets) through decoder and parser; serialise all."""
    decoder = SseDecoder()
    parser = recording.wire.new_parser(recording.model)
    lines: list[Json] = []
    final: Json | None = None

    def emit(events: Sequence[Any]) -> None:
        nonlocal final
        for event in events:
            if isinstance(event, DoneEvent | ErrorEvent):
                event.message.timestamp = 0
                final = message_to_dict(event.message)
            lines.append(assistant_event_to_dict(event))

    body = recording.body
    start = 0
    for cut in [*sorted({c for c in cuts if 0 < c < len(body)}), len(body)]:
        for sse in decoder.feed(body[start:cut]):
            emit(parser.feed(sse))
        start = cut
    for sse in decoder.flush():
        emit(parser.feed(sse))
    emit(parser.finish())
    lines.append({"finalMessage": final})
    return lines


def every(size: int, length: int) -> range:
    return range(size, length, size)


def events_path(recording: Recording) -> Path:
    return GOLDEN / "events" / recording.api / f"{recording.case}.jsonl"


def dump_events(lines: list[Json]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n" for line in lines)


def errors_path(api: str) -> Path:
    return GOLDEN / "errors" / f"{api}.json"


def error_goldens() -> dict[str, dict[str, str]]:
    """api -> case -> error_message(status, body)."""
    out: dict[str, dict[str, str]] = {}
    for r in error_recordings():
        out.setdefault(r.api, {})[r.case] = r.wire.error_message(r.status, r.body)
    return out


def request_to_dict(spec: HttpRequestSpec) -> Json:
    return {"method": spec.method, "url": spec.url, "headers": dict(spec.headers), "body": spec.body}


def dump_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True) + "\n"

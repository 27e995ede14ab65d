"""The checkpoint's key: what the converted items depend on besides the messages, and nothing else."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, LlmMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.apis import wire_api
from tau_ai.body_encoding import BodyParts, encode_body, encode_body_parts
from tau_ai.handoff import HandoffMemory
from tau_ai.request_cache import RequestCache
from tau_ai.request_checkpoint import Checkpoint, checkpoint_key, read, write
from tau_ai.stored_text import StoredText
from tests.golden.requests import MODELS

MODEL = replace(MODELS["openai-completions"], base_url="http://127.0.0.1:8000/v1")


def test_the_key_ignores_the_port_headers_and_limits_but_not_the_host_or_model() -> None:
    key = checkpoint_key(MODEL)
    same = [
        replace(MODEL, base_url="http://127.0.0.1:9123/v1"),
        replace(MODEL, headers={"x-secret": "s"}, max_tokens=7, context_window=9),
    ]
    other = [
        replace(MODEL, base_url="https://api.mistral.ai/v1"),
        replace(MODEL, id="other"),
        replace(MODEL, input=("text",)),
        replace(MODEL, compat={"requiresAssistantAfterToolResult": True}),
    ]
    assert all(checkpoint_key(m) == key for m in same)
    assert all(checkpoint_key(m) != key for m in other)


def test_a_checkpoint_reads_back_and_any_cut_or_changed_byte_is_refused() -> None:
    checkpoint = Checkpoint(
        checkpoint_key(MODEL), 3, [b'{"a":1},{"b":2}', b'{"c":3}'], HandoffMemory([("x", "y")], ["z"])
    )
    out = io.BytesIO()
    write(checkpoint, out)
    data = out.getvalue()
    assert read(io.BytesIO(data)) == checkpoint
    for cut in (1, len(data) // 2, len(data) - 1):
        assert read(io.BytesIO(data[:cut])) is None
    for at in (len(data) // 2, len(data) - 6):
        changed = bytearray(data)
        changed[at] ^= 0x20
        assert read(io.BytesIO(bytes(changed))) is None
    assert read(io.BytesIO(data + b"x")) is None


def test_a_resumed_conversation_sends_and_checkpoints_its_runs_without_copying_them() -> None:
    """A resume takes the checkpoint's runs up as they were read: the request sends their bytes
    as parts of their own, and the next close writes them again as the same objects."""
    turns: list[LlmMessage] = []
    for n in range(6):
        turns += [
            UserMessage(f"question {n}", n),
            AssistantMessage([TextContent(f"answer {n}")], timestamp=n),
        ]
    first = RequestCache(MODEL, wire_api(MODEL.api))
    first.build(Context("s", turns, []), StreamOptions(), "k")
    taken = first.checkpoint()
    assert taken is not None
    out = io.BytesIO()
    write(taken[0], out)
    decoded = read(io.BytesIO(out.getvalue()))
    assert decoded is not None and len(decoded.pieces) == 2
    later = [*turns, UserMessage("one more", 9)]
    resumed = RequestCache(MODEL, wire_api(MODEL.api))
    assert resumed.resume(decoded, later)
    body = encode_body_parts(resumed.build(Context("s", later, []), StreamOptions(), "k").body)
    assert isinstance(body, BodyParts) and any(part is decoded.pieces[0] for part in body.parts)
    again = resumed.checkpoint()
    assert again is not None and again[0].pieces[0] is decoded.pieces[0]
    full = wire_api(MODEL.api).build_request(MODEL, Context("s", later, []), StreamOptions(), "k")
    assert body.joined() == encode_body(full.body)


def test_a_checkpoint_read_from_its_file_leaves_its_history_there_and_sends_the_same_body(
    tmp_path: Path,
) -> None:
    turns: list[LlmMessage] = []
    for n in range(3000):  # about 1.5 MB of converted history
        turns += [
            UserMessage(f"question {n} " * 40, n),
            AssistantMessage([TextContent(f"answer {n}")], timestamp=n),
        ]
    first = RequestCache(MODEL, wire_api(MODEL.api))
    first.build(Context("s", turns, []), StreamOptions(), "k")
    taken = first.checkpoint()
    assert taken is not None
    path = tmp_path / "c.requests"
    with path.open("wb") as out:
        write(taken[0], out)
    with path.open("rb") as source:
        decoded = read(source, in_file=True)
    assert decoded is not None and isinstance(decoded.pieces[0], StoredText)
    later = [*turns, UserMessage("one more", 9)]
    resumed = RequestCache(MODEL, wire_api(MODEL.api))
    assert resumed.resume(decoded, later)
    body = encode_body_parts(resumed.build(Context("s", later, []), StreamOptions(), "k").body)
    full = wire_api(MODEL.api).build_request(MODEL, Context("s", later, []), StreamOptions(), "k")
    assert isinstance(body, BodyParts) and any(isinstance(part, StoredText) for part in body.parts)
    assert body.joined() == encode_body(full.body)
    again = resumed.checkpoint()
    assert again is not None and again[0].pieces[0] is decoded.pieces[0]
    copy = io.BytesIO()
    write(again[0], copy)  # the next close: the stored run copied from the file
    back = read(io.BytesIO(copy.getvalue()))
    assert back is not None and [bytes(p) for p in back.pieces] == [bytes(p) for p in again[0].pieces]
    changed = bytearray(path.read_bytes())
    changed[len(changed) // 2] ^= 0x20
    path.write_bytes(changed)
    with path.open("rb") as source:
        assert read(source, in_file=True) is None

"""The request checkpoint kept beside a session file: used when the session is as it was left,
ignored (a full conversion instead) when anything about it changed or the file is damaged."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import orjson

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    CustomMessage,
    LlmMessage,
    ToolResultMessage,
    UserMessage,
)
from tau_agent.provider import Context, StreamOptions
from tau_agent.session.entries import SessionHeader
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_ai.apis import wire_api
from tau_ai.body_encoding import encode_body
from tau_ai.handoff import transform_messages
from tau_ai.http_provider import HttpProvider
from tau_ai.request_checkpoint import read, write
from tau_ai.stored_text import StoredText
from tau_coding.session.request_checkpoints import RequestCheckpoints, _records_for, cache_path, llm_view
from tests.golden.requests import MODELS

MODEL = MODELS["openai-completions"]
SYSTEM = "You are Tau."


def turn(i: int) -> list[AgentMessage]:
    call = ToolCall(f"call_{i}", "read", {"path": f"f{i}.py"})
    return [
        UserMessage(f"look at f{i}.py", 1),
        AssistantMessage(
            [TextContent("reading"), call], api=MODEL.api, provider=MODEL.provider, model=MODEL.id
        ),
        ToolResultMessage(call.id, "read", [TextContent(f"contents {i}")], timestamp=1),
    ]


def body(provider: HttpProvider, record: list[AgentMessage]) -> bytes:
    context = Context(SYSTEM, llm_view(record), [])
    return encode_body(provider.request_cache.build(context, StreamOptions(), "key").body)


def full_body(record: list[AgentMessage]) -> bytes:
    context = Context(SYSTEM, transform_messages(llm_view(record), MODEL), [])
    return encode_body(wire_api(MODEL.api).build_request(MODEL, context, StreamOptions(), "key").body)


@dataclasses.dataclass
class Opened:
    """A session opened as a process opens it, its first request built (and so sent)."""

    log: SessionLog
    provider: HttpProvider
    checkpoints: RequestCheckpoints
    record: list[AgentMessage]
    taken: bool  # a checkpoint was taken up
    sent: bytes  # the first request's body


def send_first(path: Path, prompt: str) -> Opened:
    """Open the session, take up its checkpoint, append ``prompt`` and build its request, as
    CodingSession does (its checkpoint is then being written, by a thread)."""
    log = SessionLog(JsonlSessionStorage.open(path))
    state = log.state()
    provider = HttpProvider(MODEL, wire_api(MODEL.api), api_key=None)
    record = [*state.messages, UserMessage(prompt, 2)]
    checkpoints = RequestCheckpoints(log, state, lambda: record, minimum=1)
    taken = checkpoints.take_up(provider)
    log.append_message(record[-1])
    return Opened(log, provider, checkpoints, record, taken, body(provider, record))


def run(path: Path, prompt: str) -> tuple[bool, bytes]:
    """One process's worth: open the session, send ``prompt``, close it (leaving a checkpoint).
    Returns whether a checkpoint was taken up and the request body sent."""
    opened = send_first(path, prompt)
    opened.log.close()
    opened.checkpoints.leave(opened.provider, opened.record)
    return opened.taken, opened.sent


def session(tmp_path: Path, turns: int = 20) -> Path:
    path = tmp_path / "s.jsonl"
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new(str(tmp_path))))
    for i in range(turns):
        for message in turn(i):
            log.append_message(message)
    log.close()
    return path


def record_of(path: Path) -> list[AgentMessage]:
    with JsonlSessionStorage.open(path, read_only=True) as storage:
        return SessionLog(storage).state().messages


def test_a_resumed_session_takes_up_the_checkpoint_and_sends_the_full_conversion(tmp_path: Path) -> None:
    path = session(tmp_path)
    assert run(path, "first")[0] is False
    assert cache_path(path).exists()
    taken, sent = run(path, "second")
    assert taken is True
    assert sent == full_body(record_of(path))


def test_the_checkpoint_is_what_the_request_is_built_from(tmp_path: Path) -> None:
    path = session(tmp_path)
    run(path, "first")
    head, _, rest = cache_path(path).read_bytes().partition(b"\n")
    checkpoint = read(io.BytesIO(rest))
    assert checkpoint is not None
    pieces = [bytes(p).replace(b"contents 3", b"forged 003") for p in checkpoint.pieces]
    forged = io.BytesIO()
    write(dataclasses.replace(checkpoint, pieces=pieces), forged)
    cache_path(path).write_bytes(head + b"\n" + forged.getvalue())
    taken, sent = run(path, "second")
    assert taken is True and b"forged 003" in sent, "a valid checkpoint is used as it is"


def test_a_session_file_appended_to_since_takes_up_the_checkpoint_for_what_it_covers(tmp_path: Path) -> None:
    path = session(tmp_path)
    run(path, "first")
    # Another writer appended without leaving a checkpoint: Pi, or a Tau run killed before its close.
    with JsonlSessionStorage.open(path) as storage:
        log = SessionLog(storage)
        for message in [UserMessage("from elsewhere", 3), *turn(99)[1:]]:
            log.append_message(message)
    taken, sent = run(path, "second")
    assert taken is True
    assert sent == full_body(record_of(path))


def test_the_first_new_checkpoint_is_kept_while_its_request_is_sent_and_not_again_at_close(
    tmp_path: Path,
) -> None:
    path = session(tmp_path)
    first = send_first(path, "first")
    first.checkpoints.settle()  # the thread is done: nothing else wrote it
    assert cache_path(path).exists()
    # The run goes on (its reply is appended), and is then killed: no leave (the lock goes).
    first.log.append_message(turn(7)[1])
    first.log.close()
    taken, sent = run(path, "second")
    assert taken is True, "a killed run's first request still left its checkpoint"
    assert sent == full_body(record_of(path))

    third = send_first(path, "third")
    third.checkpoints.settle()
    kept = cache_path(path).stat()
    third.log.append_message(turn(8)[1])
    third.log.close()
    third.checkpoints.leave(third.provider, [*third.record, turn(8)[1]])
    assert cache_path(path).stat().st_ino == kept.st_ino, "the close found it kept: not written again"


def test_a_later_prompt_of_the_same_open_is_kept_at_close(tmp_path: Path) -> None:
    path = session(tmp_path)
    opened = send_first(path, "first")
    opened.checkpoints.settle()
    early = orjson.loads(cache_path(path).read_bytes().partition(b"\n")[0])["records"]
    answer = AssistantMessage([TextContent("done")], api=MODEL.api, provider=MODEL.provider, model=MODEL.id)
    for message in [answer, UserMessage("second", 3)]:
        opened.record.append(message)
        opened.log.append_message(message)
    body(opened.provider, opened.record)
    opened.log.close()
    opened.checkpoints.leave(opened.provider, opened.record)
    head = orjson.loads(cache_path(path).read_bytes().partition(b"\n")[0])
    assert head["records"] == early + 2 == len(record_of(path))
    taken, sent = run(path, "third")
    assert taken is True and sent == full_body(record_of(path))


def test_a_session_file_changed_in_place_or_replaced_is_converted_whole(tmp_path: Path) -> None:
    path = session(tmp_path)
    run(path, "first")
    data = path.read_bytes()
    at = data.rindex(b"look at f")
    with path.open("r+b") as file:  # the same length, the same inode: one byte of an old line changed
        file.seek(at)
        file.write(b"L")
    taken, sent = run(path, "second")
    assert taken is False and sent == full_body(record_of(path))
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(path.read_bytes())
    copy.replace(path)  # a new file in its place, the same bytes
    taken, sent = run(path, "third")
    assert taken is False and sent == full_body(record_of(path))


def test_a_damaged_checkpoint_is_ignored(tmp_path: Path) -> None:
    path = session(tmp_path)
    run(path, "first")
    data = cache_path(path).read_bytes()
    head, _, rest = data.partition(b"\n")
    flipped = bytearray(rest)
    flipped[len(rest) // 2] ^= 0x01
    for damaged in (data[: len(data) // 2], head + b"\n" + bytes(flipped), b"not a cache", b""):
        cache_path(path).write_bytes(damaged)
        stamp = path.stat()
        taken, sent = run(path, "again")
        assert taken is False
        assert sent == full_body(record_of(path))
        assert path.stat().st_size > stamp.st_size


def test_a_changed_system_prompt_still_gets_the_full_conversions_body(tmp_path: Path) -> None:
    path = session(tmp_path)
    run(path, "first")
    log = SessionLog(JsonlSessionStorage.open(path))
    state = log.state()
    provider = HttpProvider(MODEL, wire_api(MODEL.api), api_key=None)
    assert RequestCheckpoints(log, state).take_up(provider) is True
    record = [*state.messages, UserMessage("second", 2)]
    context = Context("Another prompt.", llm_view(record), [])
    sent = encode_body(provider.request_cache.build(context, StreamOptions(), "key").body)
    log.close()
    expected = Context("Another prompt.", transform_messages(llm_view(record), MODEL), [])
    assert sent == encode_body(
        wire_api(MODEL.api).build_request(MODEL, expected, StreamOptions(), "key").body
    )


def test_the_cache_file_is_plain_bytes_with_a_json_head(tmp_path: Path) -> None:
    path = session(tmp_path)
    run(path, "first")
    head = orjson.loads(cache_path(path).read_bytes().partition(b"\n")[0])
    assert head["session"][0] == path.stat().st_size
    assert head["records"] == len(record_of(path))  # up to and including the last user message


def test_a_big_checkpoint_is_sent_from_its_file_resume_after_resume(tmp_path: Path) -> None:
    """Runs of 1 MiB or more stay in the ``.requests`` file (StoredText): each resume sends them
    from there, and each close copies them from the file it is about to replace."""
    path = tmp_path / "big.jsonl"
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new(str(tmp_path)), fsync="never"))
    for i in range(2500):
        log.append_message(UserMessage(f"look at f{i}.py " + "x" * 400, 1))
        log.append_message(AssistantMessage([TextContent(f"done {i}")], api=MODEL.api, model=MODEL.id))
    log.close()
    assert run(path, "first")[0] is False
    for prompt in ("second", "third"):
        before = cache_path(path).stat().st_ino
        taken, sent = run(path, prompt)
        assert taken is True and sent == full_body(record_of(path))
        assert cache_path(path).stat().st_ino != before, "a new checkpoint, renamed over the old one"
    with cache_path(path).open("rb") as source:
        source.readline()
        kept = read(source, in_file=True)
    assert kept is not None and isinstance(kept.pieces[0], StoredText) and len(kept.pieces[0]) > 1 << 20


def _records_the_long_way(record: list[AgentMessage], covered: list[LlmMessage]) -> int | None:
    view = llm_view(record)
    if view[: len(covered)] != covered:
        return None
    last = [i for i, m in enumerate(record) if m is covered[-1]]
    return last[-1] + 1 if last else None


def test_the_records_a_checkpoint_covers_are_told_the_short_way_as_the_long_way() -> None:
    """``_records_for`` compares a record of model messages alone with what the checkpoint
    covers directly; a record with anything else goes through its model view."""
    plain = [m for i in range(4) for m in turn(i)]
    failed = AssistantMessage([], api=MODEL.api, provider=MODEL.provider, model=MODEL.id, stop_reason="error")
    custom = CustomMessage("note", "a note", True, None, 1)
    for record in (plain, [*plain[:4], failed, *plain[4:]], [*plain[:4], custom, *plain[4:]]):
        view = llm_view(record)
        for end in range(1, len(view) + 1):
            covered = view[:end]
            if not isinstance(covered[-1], UserMessage):
                continue
            assert _records_for(record, covered) == _records_the_long_way(record, covered)
            if any(m is covered[-1] for m in record):  # (a custom message's view is a new one)
                assert _records_for(record, covered) is not None
            edited = [UserMessage("an earlier prompt, edited", 1), *covered[1:]]
            assert _records_for(record, edited) == _records_the_long_way(record, edited) is None
        assert _records_for(record, [UserMessage("not in the record", 1)]) is None


def test_a_long_history_converted_here_is_kept_in_an_unnamed_file_not_in_memory(tmp_path: Path) -> None:
    """A session without a checkpoint converts its whole history in the process; the runs of
    that conversion go to a file beside the session (no name, gone with the process) and are
    sent from there, as a checkpoint's are, instead of staying in memory."""
    path = tmp_path / "long.jsonl"
    log = SessionLog(JsonlSessionStorage.create(path, SessionHeader.new(str(tmp_path)), fsync="never"))
    for i in range(4200):  # 8,400 items: more than one run (FOLD) of them
        log.append_message(UserMessage(f"look at f{i}.py", 1))
        log.append_message(AssistantMessage([TextContent(f"done {i}")], api=MODEL.api, model=MODEL.id))
    log.close()
    log = SessionLog(JsonlSessionStorage.open(path))
    state = log.state()
    provider = HttpProvider(MODEL, wire_api(MODEL.api), api_key=None)
    assert RequestCheckpoints(log, state).take_up(provider) is False
    record = [*state.messages, UserMessage("next", 2)]
    assert body(provider, record) == full_body(record)
    taken = provider.request_cache.checkpoint()
    assert taken is not None and isinstance(taken[0].pieces[0], StoredText)
    log.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.jsonl"]


def test_a_model_chosen_later_keeps_its_runs_in_the_file_too(tmp_path: Path) -> None:
    path = session(tmp_path)
    log = SessionLog(JsonlSessionStorage.open(path))
    checkpoints = RequestCheckpoints(log, log.state())
    later = HttpProvider(MODEL, wire_api(MODEL.api), api_key=None)
    assert later.request_cache.keep_runs is None
    checkpoints.attach(later)
    kept = later.request_cache.keep_runs
    assert kept is not None and isinstance(kept(memoryview(b'{"a":1}')), StoredText)
    log.close()

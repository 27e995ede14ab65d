"""The powers Pi gives lifecycle handlers: async refusals, the shutdown's reason and target,
a replaced message_end, and a whole compaction made by an extension."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.session.entries import CompactionEntry, MessageEntry
from tau_agent.testing import call, reply
from tau_coding.session.control import ChangeRefusedError, SessionControl
from tau_coding.session.store.manager import SessionManager
from tests.coding.extensions.helpers import Rig, fake, make_rig, write_extension

ASYNC_GUARD = """
import asyncio
from tau_coding.extensions import Cancel
seen = []
refuse = True

def activate(tau):
    for point in ("session_before_switch", "session_before_fork", "session_before_tree"):
        async def before(event, point=point):
            await asyncio.sleep(0.01)  # a real await, as a dialog would
            seen.append(point)
            return Cancel("not now") if refuse else None
        tau.on(point, before)
    tau.on("session_shutdown", lambda e: seen.append(("shutdown", e.reason, e.target_session_file)))
    tau.on("session_start", lambda e: seen.append(("start", e.source)))
"""


def _guarded(tmp_path: Path, replies: tuple[Any, ...] = ("one", "two")) -> tuple[Rig, SessionControl, Any]:
    path = write_extension(tmp_path / "ext", "guard", ASYNC_GUARD)
    rig = make_rig(tmp_path, fake(*replies), [path])
    control = SessionControl(rig.session, SessionManager(tmp_path / "sessions", str(tmp_path)))
    module = rig.host.extensions["guard"].module
    assert module is not None
    return rig, control, module


async def test_an_async_handler_refuses_a_new_session_fork_and_tree_move(tmp_path: Path) -> None:
    rig, control, module = _guarded(tmp_path)
    await rig.run("hello")
    file, leaf = rig.session.session_file, rig.session.log.leaf_id
    user_entry = next(e.id for e in rig.session.log.entries if isinstance(e, MessageEntry))
    module.seen.clear()
    with pytest.raises(ChangeRefusedError, match="not now"):
        await control.asking(control.new_session)
    with pytest.raises(ChangeRefusedError, match="not now"):
        await control.asking(lambda: control.fork(user_entry))
    with pytest.raises(ChangeRefusedError, match="not now"):
        await control.asking(lambda: control.navigate(None))
    assert module.seen == ["session_before_switch", "session_before_fork", "session_before_tree"]
    assert (rig.session.session_file, rig.session.log.leaf_id) == (file, leaf)  # nothing changed


async def test_an_agreed_change_is_asked_once_and_shuts_down_toward_the_new_file(tmp_path: Path) -> None:
    rig, control, module = _guarded(tmp_path)
    module.refuse = False
    await rig.run("hello")
    left = str(rig.session.session_file)
    module.seen.clear()
    await control.asking(control.new_session)
    new_file = rig.session.session_file
    assert new_file is not None and str(new_file) != left
    assert module.seen == ["session_before_switch", ("shutdown", "new", str(new_file)), ("start", "new")]
    module.seen.clear()
    await control.asking(lambda: control.switch_session(left))
    assert module.seen == ["session_before_switch", ("shutdown", "resume", left), ("start", "resume")]


async def test_the_shutdown_says_quit_on_close_and_reload_on_an_extension_reload(tmp_path: Path) -> None:
    rig, _, module = _guarded(tmp_path)
    seen = module.seen
    rig.host.reload()  # the module is imported anew; the old one heard the shutdown
    assert seen == [("shutdown", "reload", None)]
    fresh = rig.host.extensions["guard"].module
    assert fresh is not None and fresh is not module
    rig.session.close()
    assert fresh.seen == [("shutdown", "quit", None)]


async def test_without_asking_an_async_refusal_is_only_told(tmp_path: Path) -> None:
    rig, control, _ = _guarded(tmp_path)
    await rig.run("hello")
    control.new_session()  # synchronous code: only a plain handler's answer can count
    assert rig.session.messages == []


REPLACER = """
import msgspec
from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, UserMessage
from tau_coding.extensions import MessagePatch
told = []

def activate(tau):
    @tau.on("message_end")
    async def shorten(event):
        message = event.message
        if isinstance(message, AssistantMessage) and message.text == "WRONG":
            return MessagePatch(UserMessage(content="a reply cannot become a prompt"))
        if isinstance(message, AssistantMessage):
            return MessagePatch(msgspec.structs.replace(message, content=[TextContent(message.text.upper())]))
        return None

    tau.on("*", lambda e: told.append(e.message) if e.type == "message_end" else None)
"""


async def test_a_message_end_replacement_is_recorded_then_announced(tmp_path: Path) -> None:
    path = write_extension(tmp_path / "ext", "replacer", REPLACER)
    rig = make_rig(tmp_path, fake("quiet answer"), [path])
    events = await rig.run("hello")
    assert [m.text for m in rig.session.messages if isinstance(m, AssistantMessage)] == ["QUIET ANSWER"]
    ends = [e.message for e in events if e.type == "message_end"]
    assert [type(m).__name__ for m in ends] == ["UserMessage", "AssistantMessage"]
    assert isinstance(ends[1], AssistantMessage) and ends[1].text == "QUIET ANSWER"
    starts = [e for e in events if e.type == "message_start"]
    assert len(starts) == len(ends)  # balanced: one start for each end
    file = rig.session.session_file
    assert file is not None and "QUIET ANSWER" in file.read_text() and "quiet answer" not in file.read_text()
    module = rig.host.extensions["replacer"].module
    assert module is not None and [type(m).__name__ for m in module.told] == [
        "UserMessage",
        "AssistantMessage",
    ]
    assert module.told[1].text == "QUIET ANSWER"


async def test_a_replacement_of_another_kind_is_dropped_in_one_line(tmp_path: Path) -> None:
    path = write_extension(tmp_path / "ext", "replacer", REPLACER)
    rig = make_rig(tmp_path, fake("WRONG"), [path])
    await rig.run("hello")
    assert [type(m).__name__ for m in rig.session.messages] == ["UserMessage", "AssistantMessage"]
    [warning] = [w for w in rig.warnings if "message_end" in w]
    assert "replacement is a UserMessage, not a AssistantMessage" in warning and "\n" not in warning


async def test_a_tool_result_replacement_keeps_the_calls_answered(tmp_path: Path) -> None:
    ext = write_extension(
        tmp_path / "ext",
        "results",
        """
        import msgspec
        from tau_agent.content import TextContent
        from tau_agent.messages import ToolResultMessage
        from tau_coding.extensions import MessagePatch

        def activate(tau):
            @tau.on("message_end")
            def redact(event):
                if isinstance(event.message, ToolResultMessage):
                    return MessagePatch(msgspec.structs.replace(event.message, content=[TextContent("[hidden]")]))
                return None
        """,
    )
    (tmp_path / "secret.txt").write_text("s3cret\n")
    provider = fake(reply(call("read", {"path": "secret.txt"})), "done")
    rig = make_rig(tmp_path, provider, [ext])
    await rig.run("read it")
    assert rig.result_text() == "[hidden]"
    assert "s3cret" not in json.dumps(provider.contexts[-1], default=str)


WHOLE = """
from tau_coding.extensions import CompactDecision, CompactionResult
from tau_agent.session.entries import MessageEntry
asked = []

def activate(tau):
    @tau.on("session_before_compact")
    async def whole(event):
        asked.append((event.trigger, event.tokens_before, len(event.branch_entries)))
        if event.custom_instructions == "bad":
            return CompactDecision(compaction=CompactionResult("mine", "no-such-entry", 0))
        last = [e for e in event.branch_entries if isinstance(e, MessageEntry)][-1]
        return CompactDecision(compaction=CompactionResult("MY SUMMARY", last.id, 0, {"by": "test"}))
"""


async def test_an_extension_compaction_is_recorded_whole(tmp_path: Path) -> None:
    ext = write_extension(tmp_path / "ext", "whole", WHOLE)
    provider = fake("first answer", "second answer")
    rig = make_rig(tmp_path, provider, [ext])
    await rig.run("one")
    await rig.run("two")
    last_id = rig.session.log.leaf_id
    result = await rig.session.compact()
    assert (result.summary, result.first_kept_entry_id, result.details) == (
        "MY SUMMARY",
        last_id,
        {"by": "test"},
    )
    assert result.tokens_before > 0  # 0 from the extension: Tau's estimate
    [entry] = [e for e in rig.session.log.tree if isinstance(e, CompactionEntry)]
    assert (entry.first_kept_entry_id, entry.from_hook, entry.details) == (last_id, True, {"by": "test"})
    assert provider.calls == 2  # the model wrote no summary
    assert [type(m).__name__ for m in rig.session.messages] == [
        "CompactionSummaryMessage",
        "AssistantMessage",
    ]
    module = rig.host.extensions["whole"].module
    assert module is not None and module.asked[0][0] == "manual" and module.asked[0][2] >= 4


async def test_a_compaction_keeping_an_unknown_entry_is_reported_and_tau_compacts(tmp_path: Path) -> None:
    ext = write_extension(tmp_path / "ext", "whole", WHOLE)
    provider = fake("first answer", "second answer", "## Goal\nTau's own summary")
    rig = make_rig(tmp_path, provider, [ext])
    await rig.run("one")
    await rig.run("two")
    result = await rig.session.compact("bad")
    assert "Tau's own summary" in result.summary and provider.calls == 3
    [warning] = [w for w in rig.warnings if "compaction not used" in w]
    assert "'no-such-entry' is not a message of the current context" in warning and "\n" not in warning


def test_message_shapes_are_checked_before_a_replacement(tmp_path: Path) -> None:
    from tau_agent.content import TextContent, ToolCall
    from tau_agent.messages import ToolResultMessage
    from tau_coding.extensions.message_patch import replacement_problem

    calling = AssistantMessage(content=[ToolCall(id="c1", name="read", arguments={})])
    assert (
        replacement_problem(
            calling, AssistantMessage(content=[ToolCall(id="c1", name="read", arguments={"x": 1})])
        )
        is None
    )
    assert replacement_problem(calling, AssistantMessage(content=[TextContent("no calls")])) is not None
    assert replacement_problem(ToolResultMessage(tool_call_id="c1"), ToolResultMessage(tool_call_id="c2"))
    assert (
        replacement_problem(UserMessage(content="a"), "a string") == "replacement is a str, not a UserMessage"
    )

"""CodingSessionPort's session control over a real CodingSession, real files and auth.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_agent.content import TextContent
from tau_agent.messages import (
    AssistantMessage,
    BashExecutionMessage,
    CustomMessage,
    ToolResultMessage,
    UserMessage,
)
from tau_agent.session.entries import BranchSummaryEntry, SessionHeader
from tau_agent.session.log import SessionLog
from tau_agent.session.storage import InMemorySessionStorage
from tau_coding.modes.interactive.tree_rows import is_shown, tree_rows
from tau_coding.session.store.entry_line import describe
from tau_coding.session.store.manager import SessionManager
from tau_coding.tui.port import SessionPort, TreeRows
from tests.coding.tui.session_helpers import Rig, drain


def texts(port: SessionPort) -> list[str]:
    out = []
    for m in port.messages:
        if isinstance(m, UserMessage):
            out.append(f"user:{m.content}")
        elif isinstance(m, AssistantMessage):
            out.append(f"assistant:{m.text}")
    return out


def test_the_port_satisfies_the_session_port_protocol(tmp_path: Path) -> None:
    assert isinstance(Rig(tmp_path).port, SessionPort)


async def test_list_and_switch_sessions_of_this_project(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["first answer"])
    await drain(rig.port, "hello")
    other = rig.other_session("old question", "old answer", name="older work")
    listed = rig.port.list_sessions(everywhere=False)
    assert {s.title for s in listed} == {"hello", "older work"}
    assert [s.is_current for s in listed if s.title == "hello"] == [True]
    result = await rig.port.switch_session(str(other))
    assert not result.is_error and result.replaced_transcript
    assert result.message == "Resumed: older work"
    assert texts(rig.port) == ["user:old question", "assistant:old answer"]


async def test_resuming_an_unnamed_session_names_it_by_its_first_prompt(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    other = rig.other_session("Fix the\nflaky test", "ok")
    assert (await rig.port.switch_session(str(other))).message == "Resumed: Fix the flaky test"
    missing = await rig.port.switch_session(str(tmp_path / "nope.jsonl"))
    assert missing.is_error and missing.message


async def test_everywhere_lists_other_projects_sessions(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["a"])
    await drain(rig.port, "here")
    far = SessionManager(rig.manager.root, str(tmp_path / "far-project"))
    log = far.new()
    log.append_message(UserMessage("far away"))
    log.append_message(AssistantMessage([TextContent("far answer")]))
    log.close()
    assert [s.title for s in rig.port.list_sessions(everywhere=False)] == ["here"]
    assert {s.title for s in rig.port.list_sessions(everywhere=True)} == {"here", "far away"}


async def test_rename_another_session_and_the_current_one(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["ok"])
    await drain(rig.port, "mine")
    other = rig.other_session("q", "a")
    assert not rig.port.rename_session(str(other), "  renamed  ").is_error
    current = rig.port.info().session_file
    assert current is not None
    assert not rig.port.rename_session(current, "this one").is_error
    titles = {s.title for s in rig.port.list_sessions(everywhere=False)}
    assert titles == {"renamed", "this one"}
    assert rig.port.info().session_name == "this one"


async def test_delete_removes_another_session_and_refuses_the_current(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["ok"])
    await drain(rig.port, "mine")
    other = rig.other_session("q", "a")
    current = rig.port.info().session_file
    assert current is not None
    refused = rig.port.delete_session(current)
    assert refused.is_error and "in use" in refused.message
    assert not rig.port.delete_session(str(other)).is_error
    assert not other.exists() and Path(current).exists()


def test_a_session_open_in_another_tau_is_neither_deleted_nor_renamed(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    other = rig.other_session("q", "a")
    held = rig.manager.open(other)  # another Tau process would hold the same lock
    try:
        deleted = rig.port.delete_session(str(other))
        renamed = rig.port.rename_session(str(other), "x")
    finally:
        held.close()
    assert deleted.is_error and renamed.is_error and other.exists()
    assert deleted.message and renamed.message


async def test_tree_marks_the_active_branch_and_navigating_to_a_prompt_branches(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one", "two", "three"])
    await drain(rig.port, "first")
    await drain(rig.port, "second")
    rows = rig.port.tree()
    assert [r.text for r in rows] == ["user: first", "assistant: one", "user: second", "assistant: two"]
    assert all(r.on_path for r in rows) and [r.is_leaf for r in rows] == [False, False, False, True]
    second = rows[2].entry_id
    moved = await rig.port.navigate(second)
    assert moved.editor_text == "second" and moved.replaced_transcript
    assert texts(rig.port) == ["user:first", "assistant:one"]
    await drain(rig.port, "second, again")
    rows = rig.port.tree()
    assert [(r.depth, r.text, r.on_path) for r in rows] == [
        (0, "user: first", True),
        (0, "assistant: one", True),
        (1, "user: second, again", True),
        (1, "assistant: three", True),
        (1, "user: second", False),
        (1, "assistant: two", False),
    ]


async def test_tree_rows_read_like_a_list_and_know_the_leaf(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one", "two"])
    await drain(rig.port, "first")
    await drain(rig.port, "second")
    rows = rig.port.tree()
    listed = list(rows)
    assert len(listed) == len(rows) == 4 and rows.leaf_index == 3 and listed[3].is_leaf
    assert rows[-1] == listed[3] and rows[1:3] == listed[1:3] and rows[::-1] == listed[::-1]
    with pytest.raises(IndexError):
        rows[4]
    with pytest.raises(IndexError):
        rows[-5]
    assert TreeRows.of(listed).leaf_index == 3 and list(TreeRows.of(listed)) == listed
    assert TreeRows.of().leaf_index is None and len(TreeRows.of()) == 0


async def test_a_hidden_leaf_marks_the_row_above_it(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one"])
    await drain(rig.port, "first")
    rig.control.session.log.append_model_change("fake", "other-model")  # the leaf: a hidden entry
    rows = rig.port.tree()
    assert [(r.text, r.on_path, r.is_leaf) for r in rows] == [
        ("user: first", True, False),
        ("assistant: one", True, True),
    ]
    assert rows.leaf_index == 1


def test_the_tree_describes_every_entry_a_filter_can_show() -> None:
    log = SessionLog(InMemorySessionStorage(SessionHeader.new("/p")))
    log.append_message(UserMessage("q"))
    answer = log.append_message(AssistantMessage([TextContent("a")]))
    log.append_message(ToolResultMessage("c1", "read", [TextContent("x")]))
    log.append_message(BashExecutionMessage(command="ls"))
    log.append_message(CustomMessage(custom_type="note", content="hidden as a message"))
    log.append_custom_message("note", "shown as an entry")
    log.append_compaction("summary", answer.id, 1234)
    log.append_branch_summary(answer.id, "what the branch did")
    log.append_custom("ext.state", {"k": 1})
    log.append_model_change("fake", "other-model")
    log.append_thinking_level_change("high")
    log.set_label(answer.id, "v1")
    log.set_name("named")
    assert all((describe(entry) is not None) == is_shown(entry, "all") for entry in log.entries)
    assert sum(is_shown(entry) for entry in log.entries) == 7
    assert len(tree_rows(log)) == 7


async def test_labels_show_in_the_tree_and_clear(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one"])
    await drain(rig.port, "first")
    target = rig.port.tree()[1].entry_id
    assert rig.port.set_label(target, " checkpoint ").message == "Label: checkpoint"
    assert rig.port.tree()[1].label == "checkpoint"
    assert rig.port.set_label(target, "").message == "Label cleared"
    assert rig.port.tree()[1].label is None
    assert rig.port.set_label("nope", "x").is_error


async def test_fork_starts_a_new_session_before_the_chosen_message(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one", "two"])
    await drain(rig.port, "first")
    await drain(rig.port, "second")
    before = rig.port.info().session_file
    points = rig.port.fork_points()
    assert [p.text for p in points] == ["first", "second"]
    result = await rig.port.fork(points[1].entry_id)
    assert result.editor_text == "second" and not result.is_error
    assert texts(rig.port) == ["user:first", "assistant:one"]
    assert rig.port.info().session_file != before
    assert (await rig.port.fork("missing")).is_error


async def test_new_session_starts_empty(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one"])
    await drain(rig.port, "first")
    old = rig.port.info().session_id
    assert not (await rig.port.new_session()).is_error
    assert rig.port.messages == [] and rig.port.info().session_id != old


async def test_compact_with_the_feature_reports_a_result_or_a_clear_error(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one", "## Goal\nsummary of the work"])
    await drain(rig.port, "first")
    result = await rig.port.compact("keep the plan")
    assert result.message.startswith(("Compacted", "Compaction failed: "))


def test_export_writes_html_where_asked(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    result = rig.port.export_html("out/session.html")
    target = rig.project / "out" / "session.html"
    assert not result.is_error and str(target) in result.message
    assert target.read_text().lstrip().lower().startswith("<!doctype html")


def test_export_to_an_unwritable_place_is_an_error_result(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    (rig.project / "blocker").write_text("a file, not a directory")
    result = rig.port.export_html("blocker/x.html")
    assert result.is_error and result.message


def test_reload_rebuilds_the_session_and_keeps_the_conversation(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    log = rig.control.session.log
    assert rig.port.reload().message.startswith("Reloaded")
    assert rig.reloads == 1 and rig.control.session.log is log
    assert Rig(tmp_path / "n", reloadable=False).port.reload().is_error


def test_login_stores_a_key_and_logout_removes_it(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    result = rig.port.login("anthropic", " sk-test ")
    assert not result.is_error and "Reloaded" in result.message
    assert json.loads(rig.auth_file.read_text()) == {"anthropic": {"type": "api_key", "key": "sk-test"}}
    assert rig.auth_file.stat().st_mode & 0o777 == 0o600
    assert not rig.port.logout("anthropic").is_error
    assert json.loads(rig.auth_file.read_text()) == {}
    assert rig.port.login("anthropic", "  ").is_error
    assert rig.port.logout("").is_error


def test_login_with_a_broken_auth_file_is_an_error_and_keeps_the_file(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    rig.auth_file.parent.mkdir(parents=True)
    rig.auth_file.write_text("{not json")
    result = rig.port.login("anthropic", "sk")
    assert result.is_error and "invalid JSON" in result.message
    assert rig.auth_file.read_text() == "{not json"


def test_scoped_models_take_labels_or_patterns(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    rig.port.set_scoped_models(["fake/*"])
    assert rig.port.scoped_models() == ["fake/fake-model", "fake/other-model"]
    rig.port.set_scoped_models(["third-model", "nope/none"])
    assert rig.port.scoped_models() == ["other/third-model"]


def test_scoped_models_keep_their_levels_for_ctrl_p(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    rig.port.set_scoped_models(["fake-model:high", "other/*:low", "other-model"])
    assert rig.port.scoped_models() == ["fake/fake-model", "other/third-model", "fake/other-model"]
    levels = [rig.port.scoped_level(label) for label in rig.port.scoped_models()]
    assert levels == ["high", "low", None]
    rig.port.set_scoped_models(["fake/fake-model", "fake/other-model"])  # chosen again in the picker
    assert [rig.port.scoped_level(label) for label in rig.port.scoped_models()] == ["high", None]


def test_settings_rows_include_session_and_file_settings(tmp_path: Path) -> None:
    rows = dict(Rig(tmp_path).port.settings())
    assert rows["model"] == "fake/fake-model"
    assert rows["theme"] == "dark" and rows["retry.enabled"] == "True"


async def test_branch_with_summary_moves_and_hands_the_prompt_back(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["one", "two", "the summary"])
    await drain(rig.port, "first")
    await drain(rig.port, "second")
    result = await rig.port.branch_with_summary(rig.port.tree()[2].entry_id)
    assert not result.is_error, result.message
    assert result.editor_text == "second"
    summaries = [e for e in rig.control.session.log.entries if isinstance(e, BranchSummaryEntry)]
    assert [e.summary for e in summaries] == ["the summary"]


def test_context_tokens_come_from_context_usage(tmp_path: Path) -> None:
    tokens = Rig(tmp_path).port.info().context_tokens
    assert isinstance(tokens, int) and tokens > 0

"""The task list as data: validation, the list in force on a path, its panel and count."""

from __future__ import annotations

import pytest

from tau_agent.content import TextContent
from tau_agent.messages import ToolResultMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.log import SessionLog
from tau_agent.session.storage import InMemorySessionStorage
from tau_coding.extensions.ui import HeadlessUI
from tau_coding.todo.extension import create_todo_tool, show_todos, todos_from_plan
from tau_coding.todo.items import (
    ENTRY_TYPE,
    TodoError,
    TodoItem,
    count_text,
    parse_items,
    render_lines,
    todos_on_path,
)


def _result(items: list[dict[str, str]], *, is_error: bool = False) -> ToolResultMessage:
    return ToolResultMessage(
        tool_call_id="c",
        tool_name="todo",
        content=[TextContent("ok")],
        details={"items": items},
        is_error=is_error,
    )


def _log() -> SessionLog:
    return SessionLog(InMemorySessionStorage(SessionHeader.new("/tmp", None)))


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("write tests", "must be a list"),
        ([{"status": "done"}], "item 1 needs a non-empty text"),
        ([{"text": "a", "status": "finished"}], "status must be one of pending, in_progress, done"),
        ([3], "item 1 must be an object"),
    ],
)
def test_a_bad_list_is_refused_with_one_line_saying_what_to_change(value: object, problem: str) -> None:
    with pytest.raises(TodoError, match=problem):
        parse_items(value)


def test_the_list_in_force_is_the_last_one_recorded_on_the_path() -> None:
    log = _log()
    log.append_message(_result([{"text": "one", "status": "pending"}]))
    branch_point = log.leaf_id
    log.append_message(_result([{"text": "one", "status": "done"}, {"text": "two", "status": "in_progress"}]))
    log.append_message(_result([{"text": "ignored", "status": "done"}], is_error=True))
    assert todos_on_path(log.path()) == [TodoItem("one", "done"), TodoItem("two", "in_progress")]
    log.navigate(branch_point)
    assert todos_on_path(log.path()) == [TodoItem("one", "pending")]
    log.append_custom(ENTRY_TYPE, {"items": [{"text": "from a plan", "status": "pending"}]})
    assert todos_on_path(log.path()) == [TodoItem("from a plan")]
    log.navigate(None)
    assert todos_on_path(log.path()) == []


def test_a_list_recorded_long_ago_is_found_past_other_results_and_none_without_one() -> None:
    log = _log()
    other = ToolResultMessage("r", "read", [TextContent("body")], details={"items": [{"text": "x"}]})
    for _ in range(50):
        log.append_message(other)
    assert todos_on_path(log.path()) == []  # another tool's result is no list, whatever it holds
    log.append_message(_result([{"text": "early", "status": "pending"}]))
    for _ in range(50):
        log.append_message(other)
    assert todos_on_path(log.path()) == [TodoItem("early")]


def test_panel_lines_and_footer_count() -> None:
    items = [TodoItem("a", "done"), TodoItem("b", "in_progress"), TodoItem("c")]
    assert render_lines(items) == ["[x] a", "[~] b", "[ ] c"]
    assert count_text(items) == "todo 1/3"
    assert count_text([]) is None


async def test_the_tool_records_the_whole_list_in_its_details_and_shows_it() -> None:
    seen: list[list[TodoItem]] = []
    tool = create_todo_tool(seen.append)
    from tau_agent.cancellation import CancellationToken

    args = {"items": [{"text": "read", "status": "done"}, {"text": "fix", "status": "pending"}]}
    result = await tool.execute("c1", args, CancellationToken(), lambda _: None)
    assert not result.is_error
    assert result.details == {"items": args["items"]}
    assert seen == [[TodoItem("read", "done"), TodoItem("fix")]]
    bad = await tool.execute("c2", {"items": "x"}, CancellationToken(), lambda _: None)
    assert bad.is_error and seen == [[TodoItem("read", "done"), TodoItem("fix")]]


def test_show_todos_tells_a_frontend_only_what_changed() -> None:
    ui = HeadlessUI(lambda _: None)
    show_todos(ui, [TodoItem("a")])
    assert ui.widgets == {"todo": ["[ ] a"]} and ui.status == {"todo": "todo 0/1"}
    ui.widgets.clear()
    show_todos(ui, [TodoItem("a")])
    assert ui.widgets == {}
    show_todos(ui, [])
    assert "todo" not in ui.status


def test_a_plans_steps_become_a_fresh_list() -> None:
    assert todos_from_plan(["  read the code ", "", "change it"]) == [
        TodoItem("read the code"),
        TodoItem("change it"),
    ]


async def test_a_list_in_claude_codes_todowrite_names_is_the_same_list() -> None:
    """Found in real use: a model that wrote ``"status": "completed"`` (Claude Code's word) had
    its call refused. ``todos``/``content``/``completed`` are taken as ``items``/``text``/``done``."""
    from tau_agent.cancellation import CancellationToken
    from tau_agent.validation import validate_arguments

    seen: list[list[TodoItem]] = []
    tool = create_todo_tool(seen.append)
    assert tool.prepare_arguments is not None
    claude = {
        "todos": [
            {"content": "read", "status": "completed", "activeForm": "Reading"},
            {"content": "fix", "status": "in_progress", "activeForm": "Fixing"},
        ]
    }
    args = validate_arguments("todo", tool.parameters, tool.prepare_arguments(claude))
    result = await tool.execute("c1", args, CancellationToken(), lambda _: None)
    assert not result.is_error and seen == [[TodoItem("read", "done"), TodoItem("fix", "in_progress")]]
    ours = {"items": [{"text": "a", "status": "done"}]}
    assert tool.prepare_arguments(ours) == ours


def test_a_todo_row_says_how_far_the_list_is_and_what_is_under_way() -> None:
    from tau_coding.todo.extension import todo_call_line

    items = [{"text": "read", "status": "done"}, {"text": "fix it", "status": "in_progress"}, {"text": "c"}]
    assert todo_call_line({"items": items}) == "1/3 done · fix it"
    assert todo_call_line({"todos": [{"content": "x", "status": "completed"}]}) == "1/1 done"
    assert todo_call_line({"items": []}) == "clear the list"
    assert todo_call_line({"items": "nonsense"}) == "(a list that is not valid)"

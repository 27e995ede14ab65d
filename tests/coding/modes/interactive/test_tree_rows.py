"""The /tree rows each filter gives and how a search over them matches (pure: no UI)."""

from __future__ import annotations

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.log import SessionLog
from tau_agent.session.storage import InMemorySessionStorage
from tau_coding.modes.interactive.tree_rows import is_shown, tree_rows
from tau_coding.session.store.entry_line import describe
from tau_coding.tui.tree_port import TREE_FILTERS, TreeFilter


def branched_log() -> SessionLog:
    """A fix with a tool call, a model change, a labelled turn, then a step back to the fix's
    answer and a second branch from there (the active one)."""
    log = SessionLog(InMemorySessionStorage(SessionHeader.new("/p")))
    log.append_message(UserMessage("Fix the parser"))
    log.append_message(AssistantMessage([ToolCall("c1", "read", {"path": "parser.py"})]))
    log.append_message(ToolResultMessage("c1", "read", [TextContent("def parse(): ...")]))
    found = log.append_message(AssistantMessage([TextContent("Found the bug")]))
    log.append_model_change("fake", "other-model")
    tests = log.append_message(UserMessage("Now add tests"))
    log.append_message(AssistantMessage([TextContent("Added tests")]))
    log.set_label(tests.id, "tests done")
    log.navigate(found.id)
    log.append_message(UserMessage("Try another way"))
    log.append_message(AssistantMessage([TextContent("Other way")]))
    return log


def texts(log: SessionLog, filter: TreeFilter) -> list[str]:
    return [row.text for row in tree_rows(log, filter)]


def test_each_filter_keeps_its_entries_in_tree_order() -> None:
    log = branched_log()
    conversation = ["user: Fix the parser", "assistant: [read]", "read result", "assistant: Found the bug"]
    active = ["user: Try another way", "assistant: Other way"]
    left = ["user: Now add tests", "assistant: Added tests"]
    assert texts(log, "default") == conversation + active + left
    assert texts(log, "no-tools") == ["user: Fix the parser", "assistant: Found the bug", *active, *left]
    assert texts(log, "user") == ["user: Fix the parser", "user: Try another way", "user: Now add tests"]
    assert texts(log, "labelled") == ["user: Now add tests"]
    assert texts(log, "all") == [
        *conversation,
        *active,
        "[model: fake/other-model]",
        *left,
        "[label: tests done]",
    ]


def test_a_filter_keeps_depths_labels_and_marks_the_nearest_shown_leaf() -> None:
    log = branched_log()
    default = tree_rows(log)
    assert [row.depth for row in default] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert default.leaf_index == 5 and default[5].is_leaf
    user = tree_rows(log, "user")
    assert [(row.depth, row.on_path, row.is_leaf) for row in user] == [
        (0, True, False),
        (1, True, True),  # the leaf is an answer; the question above it stands in for it
        (1, False, False),
    ]
    labelled = tree_rows(log, "labelled")
    assert labelled[0].label == "tests done" and labelled.leaf_index is None


def test_no_filter_shows_a_leaf_marker_and_all_shows_every_other_entry() -> None:
    log = branched_log()
    markers = [entry for entry in log.entries if describe(entry) is None]
    assert len(markers) == 1  # the step back to the fix's answer
    for filter in TREE_FILTERS:
        assert not is_shown(markers[0], filter, "a label")
    assert len(tree_rows(log, "all")) == len(log.entries) - 1


def test_is_shown_answers_as_tree_rows_does() -> None:
    log = branched_log()
    labels = log.labels
    for filter in TREE_FILTERS:
        shown = {row.entry_id for row in tree_rows(log, filter)}
        assert shown == {e.id for e in log.entries if is_shown(e, filter, labels.get(e.id))}


def test_search_finds_rows_by_every_word_of_text_or_label() -> None:
    rows = tree_rows(branched_log())
    assert rows.find("PARSER") == [0]
    assert rows.find("tests") == [6, 7]
    assert rows.find("  tests   DONE ") == [6]  # "done" is only in the label
    assert rows.find("user way") == [4]
    assert rows.find("nothing like this") == []
    assert rows.find(" ") == list(range(len(rows)))
    conversation = tree_rows(branched_log(), "no-tools")
    assert [conversation[i].text for i in conversation.find("tests")] == [
        "user: Now add tests",
        "assistant: Added tests",
    ]


def test_rows_know_the_position_of_an_entry() -> None:
    log = branched_log()
    rows = tree_rows(log, "user")
    assert [rows.position(row.entry_id) for row in rows] == [0, 1, 2]
    assert rows.position(log.entries[1].id) is None  # the tool call is not a user message

"""Pilot tests of finding things in /tree: ``/`` searches, F cycles the filters (real session)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, Static

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_coding.tui.screens.tree_view import TreeScreen
from tau_coding.tui.shell.app import TauApp
from tau_coding.tui.widgets.row_list import RowList

from .session_helpers import Rig
from .test_app import SIZE, type_text, until
from .test_session_screens import command, errors, make_app, option_texts, users

EVERY_ROW = [
    "● user: Fix the parser",
    "● assistant: [read]",
    "● read result",
    "● assistant: Found the bug",
    "  ● user: Try another way",
    "  ▶ assistant: Other way",
    "  ○ user: Now add tests  [tests done]",
    "  ○ assistant: Added tests",
]


def branched_rig(tmp_path: Path) -> Rig:
    """A fix with a tool call, a model change and a labelled turn, then a step back to the
    fix's answer and a second, active branch from there."""
    rig = Rig(tmp_path, ["the summary"])
    log = rig.control.session.log
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
    return rig


async def open_tree(pilot: Pilot[object], app: TauApp) -> TreeScreen:
    await command(pilot, app, "/tree")
    await until(pilot, lambda: isinstance(app.screen, TreeScreen))
    tree = app.screen
    assert isinstance(tree, TreeScreen)
    return tree


def status(tree: TreeScreen) -> str:
    return str(tree.query_one("#picker-status", Static).render())


def highlighted_text(tree: TreeScreen) -> str | None:
    row = tree.highlighted
    return None if row is None else row.text


async def test_search_narrows_as_you_type_and_esc_brings_every_row_back(tmp_path: Path) -> None:
    app = make_app(branched_rig(tmp_path).port)
    async with app.run_test(size=SIZE) as pilot:
        tree = await open_tree(pilot, app)
        assert not tree.query("#tree-search")  # mounted on the first /
        await pilot.press("slash")
        await until(
            pilot, lambda: bool(tree.query("#tree-search")) and tree.query_one("#tree-search").has_focus
        )
        field = tree.query_one("#tree-search", Input)
        await type_text(pilot, "TESTS")
        flat = [
            "○ user: Now add tests  [tests done]",
            "○ assistant: Added tests",
        ]  # no indent while searching
        await until(pilot, lambda: option_texts(tree) == flat)
        assert status(tree) == "2 of 8 entries match"
        await type_text(pilot, " done")  # "done" is only in the label
        await until(pilot, lambda: len(option_texts(tree)) == 1)
        await type_text(pilot, "x")
        await until(pilot, lambda: option_texts(tree) == [] and status(tree) == "No entries match")
        await pilot.press("escape")
        await until(pilot, lambda: option_texts(tree) == EVERY_ROW)
        assert highlighted_text(tree) == "assistant: Other way" and status(tree) == ""
        assert tree.query_one(RowList).has_focus and field.has_class("-hidden") and field.value == ""
        await pilot.press("escape")  # no search left: Esc closes
        await until(pilot, lambda: not isinstance(app.screen, TreeScreen))


async def test_enter_in_search_goes_to_the_list_and_enter_there_moves_to_the_match(tmp_path: Path) -> None:
    rig = branched_rig(tmp_path)
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        tree = await open_tree(pilot, app)
        await pilot.press("slash")
        await type_text(pilot, "way")  # the highlighted leaf matches: it stays highlighted
        await until(
            pilot, lambda: option_texts(tree) == ["● user: Try another way", "▶ assistant: Other way"]
        )
        await pilot.press("enter")
        await until(pilot, lambda: tree.query_one(RowList).has_focus)
        assert highlighted_text(tree) == "assistant: Other way"
        assert tree.query_one("#tree-search", Input).value == "way"  # the search stays, in view
        await pilot.press("slash", "backspace", "backspace", "backspace")
        await type_text(pilot, "parser")  # the leaf does not match: the first match is highlighted
        await until(pilot, lambda: option_texts(tree) == ["● user: Fix the parser"])
        await pilot.press("enter")
        await until(pilot, lambda: tree.query_one(RowList).has_focus)
        assert highlighted_text(tree) == "user: Fix the parser"
        await pilot.press("enter")
        await until(pilot, lambda: app.editor.text == "Fix the parser")
        assert users(app) == [] and not isinstance(app.screen, TreeScreen)


async def test_esc_on_the_list_clears_the_search_and_keeps_the_row_you_are_on(tmp_path: Path) -> None:
    app = make_app(branched_rig(tmp_path).port)
    async with app.run_test(size=SIZE) as pilot:
        tree = await open_tree(pilot, app)
        await pilot.press("slash")
        await type_text(pilot, "tests")
        await pilot.press("enter", "down")  # onto the second match
        await until(pilot, lambda: highlighted_text(tree) == "assistant: Added tests")
        await pilot.press("escape")
        await until(pilot, lambda: option_texts(tree) == EVERY_ROW)
        assert highlighted_text(tree) == "assistant: Added tests"
        assert isinstance(app.screen, TreeScreen)


async def test_letters_typed_into_the_search_are_text_not_keys(tmp_path: Path) -> None:
    app = make_app(branched_rig(tmp_path).port)
    async with app.run_test(size=SIZE) as pilot:
        tree = await open_tree(pilot, app)
        await pilot.press("slash")
        await type_text(pilot, "self/")
        field = tree.query_one("#tree-search", Input)
        await until(pilot, lambda: field.value == "self/")
        assert tree.filter == "default" and field.has_focus and isinstance(app.screen, TreeScreen)


async def test_f_cycles_the_filters_and_names_them(tmp_path: Path) -> None:
    app = make_app(branched_rig(tmp_path).port)
    async with app.run_test(size=SIZE) as pilot:
        tree = await open_tree(pilot, app)
        await pilot.press("f")
        await until(pilot, lambda: status(tree) == "Filter: no tools")
        assert option_texts(tree) == [EVERY_ROW[0], EVERY_ROW[3], *EVERY_ROW[4:]]
        assert highlighted_text(tree) == "assistant: Other way"  # the highlighted row is still listed
        await pilot.press("f")
        await until(pilot, lambda: status(tree) == "Filter: user messages")
        assert option_texts(tree) == [
            "● user: Fix the parser",
            "  ▶ user: Try another way",  # the leaf is an answer: its question stands in for it
            "  ○ user: Now add tests  [tests done]",
        ]
        await pilot.press("f")
        await until(pilot, lambda: status(tree) == "Filter: labelled")
        assert option_texts(tree) == ["  ○ user: Now add tests  [tests done]"]
        await pilot.press("f")
        await until(pilot, lambda: status(tree) == "Filter: all entries")
        assert (
            option_texts(tree)
            == [
                "● [model: fake/fake-model]",  # the session's start records its model
                *EVERY_ROW[:6],
                "  ○ [model: fake/other-model]",
                *EVERY_ROW[6:],
                "  ○ [label: tests done]",
            ]
        )
        await pilot.press("f")
        await until(pilot, lambda: status(tree) == "")
        assert option_texts(tree) == EVERY_ROW


async def test_filter_and_search_combine_and_l_labels_a_filtered_row(tmp_path: Path) -> None:
    rig = branched_rig(tmp_path)
    app = make_app(rig.port)
    async with app.run_test(size=SIZE) as pilot:
        tree = await open_tree(pilot, app)
        await pilot.press("f", "f")  # user messages
        await pilot.press("slash")
        await type_text(pilot, "a")  # matches "parser", "another", "add"; not the answers
        await until(pilot, lambda: status(tree) == "Filter: user messages · 3 of 3 entries match")
        await type_text(pilot, "dd")
        await until(pilot, lambda: option_texts(tree) == ["○ user: Now add tests  [tests done]"])
        await pilot.press("enter", "l")
        label = tree.query_one("#tree-label", Input)
        await until(pilot, lambda: label.has_focus and label.value == "tests done")
        label.value = ""
        await type_text(pilot, "reviewed")
        await pilot.press("enter")
        await until(pilot, lambda: option_texts(tree) == ["○ user: Now add tests  [reviewed]"])
        assert status(tree) == "Filter: user messages · 1 of 3 entries match · Label: reviewed"
        assert [row.label for row in rig.port.tree("labelled")] == ["reviewed"]
        assert tree.query_one(RowList).has_focus and highlighted_text(tree) == "user: Now add tests"


async def test_s_moves_with_a_summary_from_a_filtered_search(tmp_path: Path) -> None:
    app = make_app(branched_rig(tmp_path).port)
    async with app.run_test(size=SIZE) as pilot:
        tree = await open_tree(pilot, app)
        await pilot.press("f")  # no tools
        await pilot.press("slash")
        await type_text(pilot, "parser")
        await pilot.press("enter")
        await until(pilot, lambda: highlighted_text(tree) == "user: Fix the parser")
        await pilot.press("s")
        await until(pilot, lambda: bool(errors(app)) or app.editor.text == "Fix the parser")
        assert not isinstance(app.screen, TreeScreen)

"""The pure parts of themes, key bindings, the external editor, the title and the pickers."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from textual.color import Color

from tau_coding.tui.external_editor import ExternalEditorError, edit_text, editor_command
from tau_coding.tui.keymap import load_keybindings, parse_keybindings
from tau_coding.tui.port import StoredSession, TreeRow
from tau_coding.tui.screens.session_picker import filter_sessions, session_line
from tau_coding.tui.screens.tree_view import row_text
from tau_coding.tui.theme.user_themes import ThemeError, load_user_themes, parse_theme
from tau_coding.tui.title import terminal_title, title_sequence


def test_keybindings_map_actions_to_one_or_several_keys() -> None:
    keymap, problems = parse_keybindings({"cycle_model": "ctrl+n", "external_editor": ["ctrl+g", "f2"]})
    assert keymap == {"cycle_model": "ctrl+n", "external_editor": "ctrl+g,f2"} and problems == []


def test_keybindings_problems_are_reported_and_the_rest_applies() -> None:
    keymap, problems = parse_keybindings(
        {"launch_rockets": "ctrl+r", "cycle_model": [], "interrupt": "ctrl+c,ctrl+q", "newline": "ctrl+j"}
    )
    assert keymap == {"newline": "ctrl+j"}
    assert [p.split(": ", 1)[1].split(" (")[0] for p in problems] == [
        "unknown action 'launch_rockets'",
        "'cycle_model' needs a key or a non-empty list of keys",
        "'interrupt': write several keys as a list, not with commas",
    ]
    assert parse_keybindings(["ctrl+a"])[1] == [
        "keybindings.json: must hold a JSON object of action -> key(s)"
    ]


def test_keybindings_file_missing_is_fine_and_bad_json_is_one_line(tmp_path: Path) -> None:
    assert load_keybindings(tmp_path / "keybindings.json") == ({}, [])
    path = tmp_path / "keybindings.json"
    path.write_text('{"cycle_model": ')
    keymap, problems = load_keybindings(path)
    assert keymap == {} and problems == [f"{path}: invalid JSON at line 1 column 17"]
    path.write_text(json.dumps({"cycle_model": "ctrl+n"}))
    assert load_keybindings(path) == ({"cycle_model": "ctrl+n"}, [])


def test_a_user_theme_maps_colours_to_textual_variables() -> None:
    theme = parse_theme(
        {
            "name": "sunset",
            "dark": False,
            "colors": {"primary": "#ff8800", "background": "rgb(32,16,16)", "error": "red"},
            "variables": {"footer-background": "#102030"},
        },
        "sunset.json",
    )
    assert theme.name == "tau-sunset" and theme.dark is False
    assert (theme.primary, theme.background, theme.error) == ("#ff8800", "rgb(32,16,16)", "red")
    variables = theme.to_color_system().generate()
    primary = Color.parse(variables["primary"])  # Textual round-trips through HSL: off by one at most
    assert all(abs(a - b) <= 1 for a, b in zip(primary.rgb, (255, 136, 0), strict=True))
    assert theme.variables == {"footer-background": "#102030"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "t.json: must hold a JSON object"),
        ({"name": "Bad Name", "colors": {"primary": "red"}}, 't.json: "name" must be lower-case'),
        ({"name": "dark", "colors": {"primary": "red"}}, "t.json: 'dark' is a built-in theme name"),
        ({"name": "x", "colors": {}}, 't.json: "colors" must be an object with at least "primary"'),
        ({"name": "x", "colors": {"primary": "red", "glow": "red"}}, "t.json: unknown colour 'glow'"),
        ({"name": "x", "colors": {"primary": "#ggg"}}, "t.json: colors.primary: not a colour: '#ggg'"),
        ({"name": "x", "colors": {"primary": "red"}, "dark": "yes"}, 't.json: "dark" must be true or false'),
    ],
)
def test_a_bad_theme_is_one_clear_line(data: object, message: str) -> None:
    with pytest.raises(ThemeError) as caught:
        parse_theme(data, "t.json")
    assert str(caught.value).startswith(message)


def test_user_themes_load_from_a_directory_skipping_bad_files(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"name": "ocean", "colors": {"primary": "#0088ff"}}))
    (tmp_path / "b.json").write_text("{oops")
    (tmp_path / "notes.txt").write_text("not a theme")
    themes, problems = load_user_themes(tmp_path)
    assert [t.name for t in themes] == ["tau-ocean"]
    assert problems == [f"{tmp_path / 'b.json'}: invalid JSON at line 1 column 2"]
    assert load_user_themes(tmp_path / "missing") == ([], [])


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "ed.sh"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_edit_text_returns_what_the_editor_left_in_the_file(tmp_path: Path) -> None:
    command = [_script(tmp_path, 'sed -i "s/old/new/" "$1"; echo >> "$1"')]
    assert edit_text("the old text", command) == "the new text"
    assert edit_text("keeps\n", [_script(tmp_path, "true")]) == "keeps\n"


def test_edit_text_failures_say_what_happened(tmp_path: Path) -> None:
    with pytest.raises(ExternalEditorError, match="exited with status 2"):
        edit_text("x", [_script(tmp_path, "exit 2")])
    with pytest.raises(ExternalEditorError, match="cannot run"):
        edit_text("x", [str(tmp_path / "no-such-editor")])


def test_visual_wins_over_editor_and_arguments_are_split() -> None:
    assert editor_command({"VISUAL": "code --wait", "EDITOR": "vi"}) == ["code", "--wait"]
    assert editor_command({"VISUAL": " ", "EDITOR": "vi"}) == ["vi"]
    with pytest.raises(ExternalEditorError, match=r"Set \$VISUAL or \$EDITOR"):
        editor_command({})
    with pytest.raises(ExternalEditorError, match="cannot be parsed"):
        editor_command({"EDITOR": 'vi "unclosed'})


def test_terminal_title_prefers_the_session_name_and_strips_control_characters() -> None:
    assert terminal_title("/home/u/code/tau", None, "/home/u") == "tau — ~/code/tau"
    assert terminal_title("/srv/x", "fix \x1b]2;evil\x07the bug", "/home/u") == "tau — fix ]2;evilthe bug"
    assert title_sequence("tau — x") == "\x1b]2;tau — x\x07"


def _stored(title: str, cwd: str = "/p", current: bool = False) -> StoredSession:
    return StoredSession(f"/s/{title}.jsonl", title, cwd, "2026-01-02 03:04", 7, current)


def test_session_search_is_fuzzy_over_title_and_directory() -> None:
    sessions = [_stored("refactor parser"), _stored("write docs", "/work/api"), _stored("fix parser bug")]
    assert [s.title for s in filter_sessions(sessions, "")] == [
        "refactor parser",
        "write docs",
        "fix parser bug",
    ]
    assert {s.title for s in filter_sessions(sessions, "parser")} == {"refactor parser", "fix parser bug"}
    assert [s.title for s in filter_sessions(sessions, "api")] == ["write docs"]


def test_session_lines_show_count_time_and_directory_when_asked() -> None:
    line = session_line(_stored("a\nmulti   line title", current=True), show_cwd=True)
    assert line == "a multi line title  ·  7 msgs  ·  2026-01-02 03:04  ·  /p  (current)"
    assert session_line(_stored("x" * 80), show_cwd=False).startswith("x" * 59 + "…  ·  ")


def test_tree_rows_mark_the_branch_indent_and_labels() -> None:
    assert row_text(TreeRow("a", 0, "user: hi", on_path=True)).plain == "● user: hi"
    assert row_text(TreeRow("b", 1, "assistant: yo", "v1", on_path=True, is_leaf=True)).plain == (
        "  ▶ assistant: yo  [v1]"
    )
    assert row_text(TreeRow("c", 2, "user: other")).plain == "    ○ user: other"

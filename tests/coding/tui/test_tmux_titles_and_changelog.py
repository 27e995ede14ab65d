"""Session titles and the changelog, as a user meets them in ``tau`` under tmux, against the local
scripted model server. Skips without tmux."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tau_coding import __version__
from tests.coding.tui.test_tmux_keys_and_paste import Rig
from tests.coding.tui.tmux_session import API, Tmux, launch

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

PRICED = [  # a big and a small model on one provider: the small one writes titles
    {"id": "big", "cost": {"input": 10, "output": 30, "cacheRead": 0, "cacheWrite": 0}},
    {"id": "small", "cost": {"input": 0.1, "output": 0.4, "cacheRead": 0, "cacheWrite": 0}},
]


@contextmanager
def tau(
    tmp_path: Path,
    replies: list[Scripted],
    settings: dict[str, object],
    models: list[dict[str, object]],
    env: dict[str, str] | None = None,
) -> Iterator[Rig]:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (home / ".tau").mkdir(parents=True)
    (home / ".tau" / "settings.json").write_text(json.dumps(settings))
    with ReplayServerThread(replies) as server:
        provider = {"baseUrl": server.url, "api": API, "apiKey": "k", "models": models}
        (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", f"local/{models[0]['id']}", env=env)
        try:
            tmux.wait_for_app()
            yield Rig(tmux, server, home)
        finally:
            tmux.kill()


def _answer(text: str) -> Scripted:
    return Scripted(body=sse_body(API, ScriptedReply(text=text)))


def _pane_title(rig: Rig, wanted: str, timeout: float = 15.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        title = rig.tmux("display", "-p", "-t", "tau", "#{pane_title}").strip()
        if title == wanted:
            return title
        time.sleep(0.1)
    raise AssertionError(f"the terminal title never became {wanted!r}: {title!r}\n{rig.tmux.screen()}")


def _gone(rig: Rig, text: str, timeout: float = 10.0) -> None:
    """Wait until ``text`` has left the screen (a key typed right after Esc would read as Alt+key)."""
    deadline = time.monotonic() + timeout
    while text in rig.tmux.screen():
        assert time.monotonic() < deadline, rig.tmux.screen()
        time.sleep(0.05)


def _ask(rig: Rig, text: str, answer: str) -> None:
    rig.type(text)
    rig.wait_editor(text[:20])
    rig.keys("Enter")
    rig.tmux.wait_for(answer)


def test_the_small_model_titles_the_session_and_name_overrides_it(tmp_path: Path) -> None:
    replies = [_answer("Tabs are read as spaces."), _answer('"Parser tab handling."')]
    settings = {"quietStartup": True, "retry": {"provider": {"maxRetries": 0}}}
    with tau(tmp_path, replies, settings, PRICED) as rig:
        _ask(rig, "Why does the parser choke on tabs?", "Tabs are read as spaces.")
        _pane_title(rig, "tau — Parser tab handling")
        assert "Parser tab handling" in rig.tmux.wait_for("Parser tab handling")  # the footer
        title_request = rig.server.requests[1].json()
        assert title_request["model"] == "small" and "tools" not in title_request
        assert "Why does the parser choke on tabs?" in json.dumps(title_request["messages"])
        rig.type("/resume")
        rig.wait_editor("/resume")
        rig.keys("Enter")
        picker = rig.tmux.wait_for("(current)")
        assert "Parser tab handling" in picker.split("Resume a session", 1)[1].split("(current)")[0]
        rig.keys("Escape")
        _gone(rig, "Resume a session")
        rig.type("/name My own words")
        rig.wait_editor("/name My own words")
        rig.keys("Enter")
        _pane_title(rig, "tau — My own words")
        assert len(rig.server.requests) == 2  # the title was made once


def test_a_failed_title_request_falls_back_to_the_prompt_silently(tmp_path: Path) -> None:
    refused = Scripted(status=400, headers={"content-type": "application/json"}, body=b'{"error": "no"}')
    replies = [_answer("Done."), refused, _answer("Tests renamed too.")]
    settings = {"quietStartup": True, "retry": {"provider": {"maxRetries": 0}}}
    with tau(tmp_path, replies, settings, PRICED) as rig:
        _ask(rig, "Rename the config loader", "Done.")
        _pane_title(rig, "tau — Rename the config loader")
        screen = rig.tmux.screen()
        assert "error" not in screen.lower() and "400" not in screen
        _ask(rig, "and the tests", "Tests renamed too.")  # no second title request
        assert [r.json()["model"] for r in rig.server.requests] == ["big", "small", "big"]


def test_with_titles_off_the_terminal_title_stays_the_directory(tmp_path: Path) -> None:
    settings = {"quietStartup": True, "autoTitle": False}
    with tau(tmp_path, [_answer("Done.")], settings, [{"id": "m"}]) as rig:
        _ask(rig, "Rename the config loader", "Done.")
        time.sleep(0.5)
        title = rig.tmux("display", "-p", "-t", "tau", "#{pane_title}").strip()
        assert title == f"tau — {tmp_path / 'project'}"


def test_an_update_is_one_line_at_start_and_changelog_shows_the_file(tmp_path: Path) -> None:
    settings = {"quietStartup": True, "lastChangelogVersion": "0.0.1"}
    with tau(tmp_path, [_answer("unused")], settings, [{"id": "m"}]) as rig:
        screen = rig.tmux.wait_for(f"Tau was updated to {__version__}")
        assert "## " not in screen  # a line, not the changelog itself
        rig.type("/changelog")
        rig.wait_editor("/changelog")
        rig.keys("Enter")
        panel = rig.tmux.wait_for(f"Changelog (Tau {__version__})")
        assert __version__ in panel.split("Changelog", 1)[1]
        rig.keys("Escape")
    saved = json.loads((tmp_path / "home" / ".tau" / "settings.json").read_text())
    assert saved["lastChangelogVersion"] == __version__ and saved["quietStartup"] is True


def test_settings_are_changed_with_the_keys_and_saved(tmp_path: Path) -> None:
    settings = {"quietStartup": True, "mine": "kept"}
    with tau(tmp_path, [_answer("unused")], settings, [{"id": "m"}]) as rig:
        rig.type("/settings")
        rig.wait_editor("/settings")
        rig.keys("Enter")
        screen = rig.tmux.wait_for("Steering (Enter)")
        assert "Auto-compaction" in screen and "local/m" in screen
        rig.keys(*["Down"] * 8, "Enter")  # Steering
        rig.tmux.wait_for("(now one-at-a-time)")
        rig.keys("Down", "Enter")  # "all"
        _gone(rig, "(now one-at-a-time)")
        rig.keys("Escape")
        _gone(rig, "Steering (Enter)")
        rig.keys("C-d")
        rig.tmux.wait_for("TAU-EXITED-0")
    saved = json.loads((tmp_path / "home" / ".tau" / "settings.json").read_text())
    assert saved["steeringMode"] == "all" and saved["mine"] == "kept"

"""``tau`` starting as a new user starts it, in tmux: with no key it opens and says what to do;
a theme and a model chosen in it are there on the next start. Skips without tmux."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import ReplayServerThread, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body
from tests.coding.tui.test_tmux_keys_and_paste import Rig
from tests.coding.tui.tmux_session import API, Tmux, launch

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_with_no_key_the_tui_opens_and_points_to_login_and_model(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    tmux = Tmux(tmp_path / "tmux.sock")
    launch(tmux, project, home)
    try:
        tmux.wait_for("/login <provider> stores a login or key")
        screen = tmux.wait_for("anthropic/")  # the footer: the notice may be written before it is drawn
        assert "/model picks another" in screen
        tmux("send-keys", "-t", "tau", "C-d")
        tmux.wait_for("TAU-EXITED-0")
    finally:
        tmux.kill()


def test_a_theme_and_a_model_chosen_in_the_tui_are_restored_on_the_next_start(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (home / ".tau").mkdir(parents=True)
    (home / ".tau" / "settings.json").write_text(json.dumps({"quietStartup": True}))
    answers = [Scripted(body=sse_body(API, ScriptedReply(text="from the second model")))]
    with ReplayServerThread(answers) as server:
        provider = {"baseUrl": server.url, "api": API, "apiKey": "k", "models": [{"id": "m"}, {"id": "m2"}]}
        (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m")
        try:
            tmux.wait_for_app()
            rig = Rig(tmux, server, home)
            rig.type("/theme light")
            rig.wait_editor("/theme light")
            rig.keys("Enter")
            tmux.wait_for("Theme: light")
            rig.type("/model local/m2")
            rig.wait_editor("/model local/m2")
            rig.keys("Enter")
            tmux.wait_for("model: local/m2")
            rig.keys("C-d")
            tmux.wait_for("TAU-EXITED-0")
        finally:
            tmux.kill()
        saved = json.loads((home / ".tau" / "settings.json").read_text())
        assert saved["theme"] == "light" and saved["quietStartup"] is True
        assert (saved["defaultProvider"], saved["defaultModel"]) == ("local", "m2")

        tmux = Tmux(tmp_path / "tmux2.sock")
        launch(tmux, project, home, env={"COLORTERM": "truecolor"})  # no --model: the saved default
        try:
            tmux.wait_for_app()  # the first screen; the model shows once the session is open
            tmux.wait_for("local/m2")
            background = tmux("display", "-p", "-t", "tau", "#{pane_bg}")
            colored = tmux("capture-pane", "-p", "-e", "-t", "tau")
            # The light theme paints a light background (48;2;R;G;B with high values).
            backgrounds = [tuple(map(int, m)) for m in _rgb_backgrounds(colored)]
            assert backgrounds and max(sum(rgb) for rgb in backgrounds) > 600, (background, backgrounds[:5])
            Rig(tmux, server, home).type("hello")
            tmux("send-keys", "-t", "tau", "Enter")
            tmux.wait_for("from the second model")
            assert server.requests[-1].json()["model"] == "m2"
        finally:
            tmux.kill()


def _rgb_backgrounds(colored: str) -> list[tuple[str, str, str]]:
    return re.findall(r"48;2;(\d+);(\d+);(\d+)", colored)


def test_a_retry_shows_its_reason_and_a_countdown_and_esc_cancels_it(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    (home / ".tau").mkdir(parents=True)
    busy = Scripted(
        503, {"content-type": "application/json", "retry-after": "30"}, b'{"error": "overloaded"}'
    )
    with ReplayServerThread([busy]) as server:
        provider = {"baseUrl": server.url, "api": API, "apiKey": "k", "models": [{"id": "m"}]}
        (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, project, home, "--model", "local/m")
        try:
            tmux.wait_for_app()
            rig = Rig(tmux, server, home)
            rig.type("hello")
            rig.wait_editor("hello")
            rig.keys("Enter")
            screen = tmux.wait_for("Esc cancels")
            assert "503" in screen or "overloaded" in screen, screen
            first = int(re.search(r"retrying in (\d+)s", screen).group(1))  # type: ignore[union-attr]
            time.sleep(2.2)
            later = int(re.search(r"retrying in (\d+)s", tmux.screen()).group(1))  # type: ignore[union-attr]
            assert later < first <= 30
            started = time.monotonic()
            rig.keys("Escape")
            deadline = started + 5
            while "Esc cancels" in tmux.screen() or "cancelling" in tmux.screen():
                assert time.monotonic() < deadline, tmux.screen()
                time.sleep(0.05)
            assert len(server.requests) == 1  # the retry never went out
        finally:
            tmux.kill()


def test_resuming_a_session_of_another_directory_moves_the_footer_and_the_model_there(
    tmp_path: Path,
) -> None:
    home, there, here = tmp_path / "home", tmp_path / "there", tmp_path / "here"
    there.mkdir()
    here.mkdir()
    (there / "only-there.txt").write_text("x")
    answers = [
        Scripted(body=sse_body(API, ScriptedReply(text=t))) for t in ("Answered there.", "Back again.")
    ]
    with ReplayServerThread(answers) as server:
        (home / ".tau").mkdir(parents=True)
        provider = {"baseUrl": server.url, "api": API, "apiKey": "k", "models": [{"id": "m"}, {"id": "m2"}]}
        (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        tmux = Tmux(tmp_path / "tmux.sock")
        launch(tmux, there, home, "--model", "local/m2")
        try:
            tmux.wait_for_app()
            rig = Rig(tmux, server, home)
            rig.type("a question asked there")
            rig.wait_editor("a question asked there")
            rig.keys("Enter")
            tmux.wait_for("Answered there.")
            rig.keys("C-d")
            tmux.wait_for("TAU-EXITED-0")
        finally:
            tmux.kill()

        (home / ".tau" / "settings.json").write_text(
            json.dumps({"defaultProvider": "local", "defaultModel": "m"})
        )
        tmux = Tmux(tmp_path / "tmux3.sock")
        launch(tmux, here, home)
        try:
            tmux.wait_for_app()
            screen = tmux.wait_for("local/m")  # (once the session is open)
            assert re.search(r"local/m(?!\d)", screen) and str(here) in screen
            rig = Rig(tmux, server, home)
            rig.type("/resume")
            rig.wait_editor("/resume")
            rig.keys("Enter")
            tmux.wait_for("Resume a session")
            rig.keys("Tab")  # every project's sessions
            tmux.wait_for("a question asked there")
            rig.keys("Enter")
            tmux.wait_for("Answered there.")
            deadline = time.monotonic() + 10
            while str(there) not in (screen := tmux.screen()) or "local/m2" not in screen:
                assert time.monotonic() < deadline, screen
                time.sleep(0.1)
            rig.type("and now")
            rig.wait_editor("and now")
            rig.keys("Enter")
            tmux.wait_for("Back again.")
            last = server.requests[-1].json()
            assert last["model"] == "m2"  # the model the session recorded
            assert str(there) in json.dumps(last["messages"][0]) and str(here) not in json.dumps(last)
        finally:
            tmux.kill()

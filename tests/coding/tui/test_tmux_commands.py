"""Commands and editing keys a Pi user reaches for, in ``tau`` in tmux: Ctrl+Y yank, the
``(n/N)`` count of the ``/`` menu, /share, /clone, /import. Skips without tmux."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.coding.tui.test_tmux_keys_and_paste import _answers, tau

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_ctrl_y_puts_back_what_ctrl_k_or_ctrl_u_removed(tmp_path: Path) -> None:
    with tau(tmp_path, _answers("ok")) as rig:
        rig.type("keep this gone")
        rig.wait_editor("keep this gone")
        rig.keys("C-u")
        rig.wait_editor("Ask anything")
        rig.type("again: ")
        rig.wait_editor("again:")
        rig.keys("C-y")
        rig.wait_editor("again: keep this gone")
        rig.keys("Home", "C-k")
        rig.wait_editor("Ask anything")
        rig.keys("C-y", "C-y")
        rig.wait_editor("again: keep this goneagain: keep this gone")


def test_the_slash_menu_counts_its_entries_and_the_highlighted_one(tmp_path: Path) -> None:
    with tau(tmp_path, _answers("ok")) as rig:
        rig.type("/")
        screen = rig.tmux.wait_for("/model")
        total = re.search(r"\(1/(\d+)\)", screen)
        assert total is not None, screen
        rig.keys("Down")
        rig.tmux.wait_for(f"(2/{total.group(1)})")


def test_share_clone_and_import(tmp_path: Path) -> None:
    outside = tmp_path / "outside.jsonl"
    temp = tmp_path / "tmp"
    temp.mkdir()
    answers = _answers("First answer.", "Second answer.", "Third answer.")
    with tau(tmp_path, answers, env={"TMPDIR": str(temp)}) as rig:
        rig.type("remember this")
        rig.wait_editor("remember this")
        rig.keys("Enter")
        rig.tmux.wait_for("First answer.")

        rig.type("/share")
        rig.wait_editor("/share")
        rig.keys("Enter")
        rig.tmux.wait_for("Exported to")
        rig.tmux.wait_for("tau-share")  # the path is printed
        (path,) = (temp / "tau-share").glob("*.html")
        assert "remember this" in path.read_text()

        sessions = home_sessions(rig.home)
        assert len(sessions) == 1
        rig.type("/clone")
        rig.wait_editor("/clone")
        rig.keys("Enter")
        rig.tmux.wait_for("Cloned into a new session")
        assert len(home_sessions(rig.home)) == 2
        rig.type("and more")
        rig.wait_editor("and more")
        rig.keys("Enter")
        rig.tmux.wait_for("Second answer.")
        assert "remember this" in json.dumps(rig.server.requests[-1].json()["messages"])

        shutil.copy(sessions[0], outside)
        rig.type(f"/import {outside}")
        rig.wait_editor("/import")
        rig.keys("Enter")
        rig.tmux.wait_for("Imported")
        rig.type("after import")
        rig.wait_editor("after import")
        rig.keys("Enter")
        rig.tmux.wait_for("Third answer.")
        sent = json.dumps(rig.server.requests[-1].json()["messages"])
        assert "remember this" in sent and "and more" not in sent


def home_sessions(home: Path) -> list[Path]:
    return sorted((home / ".tau" / "sessions").rglob("*.jsonl"), key=lambda p: p.stat().st_mtime)

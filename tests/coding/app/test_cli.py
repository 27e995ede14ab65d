"""The tau command as a user runs it: a real subprocess each time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tau_coding import __version__


def tau(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tau_coding", *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_version_answers_without_loading_the_agent_http_or_ui() -> None:
    probe = (
        "import sys; sys.argv=['tau','--version']\n"
        "from tau_coding.app.cli import main\n"
        "try: main()\n"
        "except SystemExit: pass\n"
        "heavy = [m for m in ('httpx', 'pydantic', 'rich', 'textual', 'tau_agent.loop', 'asyncio', 'typing', 'botocore') if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert f"tau {__version__}" in out.stdout
    assert "HEAVY []" in out.stdout


def test_help_lists_print_mode_and_exit_codes() -> None:
    out = tau("--help")
    assert out.returncode == 0
    assert "--print" in out.stdout and "Exit codes" in out.stdout


def test_unknown_flag_is_one_line_on_stderr_and_exit_2() -> None:
    out = tau("--frobnicate")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "unrecognized arguments: --frobnicate" in out.stderr


def test_list_models_all_searches_the_catalogue_fuzzily_in_pis_columns() -> None:
    out = tau("--list-models", "son45", "--all")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["provider", "model", "context", "max-out", "thinking", "images"]
    assert any(line.split()[:4] == ["anthropic", "claude-sonnet-4-5", "200K", "64K"] for line in lines)
    assert "gpt-5" not in out.stdout


def test_resume_in_print_mode_points_at_session_flags() -> None:
    out = tau("-p", "-r", "hello")
    assert out.returncode == 2 and "--session" in out.stderr


def test_missing_attachment_is_one_line() -> None:
    out = tau("-p", "@no-such-file.txt", "explain")
    assert out.returncode == 2 and out.stderr == "tau: cannot attach no-such-file.txt: no such file\n"


def test_no_prompt_is_a_usage_error() -> None:
    out = tau("-p")
    assert out.returncode == 2 and out.stderr.startswith("tau: no prompt given")


def test_help_lists_the_flags_extensions_add(tmp_path: Path) -> None:
    ext = tmp_path / "flags.py"
    ext.write_text(
        "def activate(tau):\n"
        "    tau.register_flag('dry-run', description='show what would change')\n"
        "    tau.register_flag('ticket', kind='str', description='link the work to a ticket')\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "TAU_HOME": str(tmp_path / ".tau")}
    out = subprocess.run(
        [sys.executable, "-m", "tau_coding", "--help", "-e", str(ext)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
    )
    assert out.returncode == 0 and "--print" in out.stdout
    section = out.stdout.split("extension flags:", 1)[1]
    assert "--dry-run" in section and "show what would change (flags)" in section
    assert "--ticket=VALUE" in section


def test_a_broken_models_json_is_one_labelled_line_and_the_catalogue_still_lists(tmp_path: Path) -> None:
    (tmp_path / ".tau").mkdir()
    (tmp_path / ".tau" / "models.json").write_text("{broken")
    env = {**os.environ, "HOME": str(tmp_path), "TAU_HOME": str(tmp_path / ".tau")}
    out = subprocess.run(
        [sys.executable, "-m", "tau_coding", "--list-models", "sonnet", "--all"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
    )
    assert out.returncode == 0 and "claude-sonnet-4-5" in out.stdout
    assert out.stderr.startswith("tau: error: ") and "warning: error" not in out.stderr
    assert out.stderr.count("\n") == 1 and "invalid JSON at line 1 column 2" in out.stderr

"""Bad files and places are one clear line on stderr, never a traceback; an answer whose session
cannot be saved is still printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.scripted_project import MODEL, Project, server

API = "openai-completions"
DEEP = "[" * 100_000


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", API)


def _one_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


@pytest.mark.parametrize("name", ["auth.json", "models.json"])
async def test_deeply_nested_config_json_is_one_line(project: Project, name: str) -> None:
    async with server(API, [ScriptedReply(text="fine")]) as srv:
        project.configure(srv.url)
        target = project.tau_home / name
        models = target.read_text() if name == "models.json" else None
        target.write_text(DEEP)
        result = await project.tau("-p", "--model", MODEL, "hi")
    if models is None:  # auth.json: the run cannot look keys up, so it stops
        assert result.code == 2
        assert _one_line(result.stderr) == f"tau: {target}: invalid JSON: nested too deeply"
    else:  # models.json: a warning, and the scripted model is gone with it
        assert "nested too deeply" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("where", ["user", "project"])
async def test_deeply_nested_settings_are_a_warning_and_the_run_goes_on(project: Project, where: str) -> None:
    async with server(API, [ScriptedReply(text="fine")]) as srv:
        project.configure(srv.url)
        target = (
            project.tau_home / "settings.json" if where == "user" else project.root / ".tau/settings.json"
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(DEEP)
        result = await project.tau("-p", "--model", MODEL, "hi")
    assert (result.code, result.stdout) == (0, "fine\n")
    assert _one_line(result.stderr) == f"tau: error: {target}: invalid JSON: nested too deeply"


async def test_auth_json_with_invalid_utf8_is_one_line(project: Project) -> None:
    async with server(API, [ScriptedReply(text="fine")]) as srv:
        project.configure(srv.url)
        (project.tau_home / "auth.json").write_bytes(b'{"x": "\xff\xfe"}')
        result = await project.tau("-p", "--model", MODEL, "hi")
    assert result.code == 2
    assert _one_line(result.stderr).startswith(f"tau: {project.tau_home / 'auth.json'}: not UTF-8 text")


async def test_an_unreadable_session_is_one_line(project: Project) -> None:
    async with server(API, [ScriptedReply(text="fine")]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "--session", "/proc/self/mem", "hi")
    assert result.code == 2
    assert _one_line(result.stderr).startswith("tau: cannot open session /proc/self/mem: ")


async def test_a_session_dir_that_is_a_file_is_one_line(project: Project) -> None:
    blocker = project.root / "not-a-dir"
    blocker.write_text("x")
    async with server(API, [ScriptedReply(text="fine")]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "--session-dir", str(blocker), "hi")
    assert result.code == 2
    assert _one_line(result.stderr) == f"tau: --session-dir {blocker} is not a directory"


async def test_an_unwritable_sessions_directory_still_prints_the_answer_then_says_why(
    project: Project,
) -> None:
    async with server(API, [ScriptedReply(text="The answer is 42.")]) as srv:
        project.configure(srv.url)
        (project.tau_home / "sessions").write_text("a file where the sessions folder should be")
        result = await project.tau("-p", "--model", MODEL, "question")
    assert result.stdout == "The answer is 42.\n"
    line = _one_line(result.stderr)
    assert line.startswith("tau: the session was not saved: ") and "sessions" in line
    assert result.code == 1

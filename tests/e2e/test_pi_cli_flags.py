"""Pi's command-line flags do in ``tau`` what they do in Pi: real ``tau`` subprocesses
against the local scripted model server."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply
from tests.e2e.scripted_project import MODEL, Project, server

COUNT_LINES = Path(__file__).resolve().parents[2] / "examples" / "extensions" / "custom_tool.py"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", "openai-completions")


def _system(body: dict[str, object]) -> str:
    messages = body["messages"]
    assert isinstance(messages, list)
    return str(messages[0]["content"])


def _tool_names(body: dict[str, object]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools", [])]  # type: ignore[attr-defined]


async def test_each_message_is_a_prompt_of_its_own_and_only_the_last_answer_prints(
    project: Project,
) -> None:
    replies = [ScriptedReply(text="first answer"), ScriptedReply(text="second answer")]
    async with server(project.api, replies) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "Read the notes", "Now summarise")
        assert result.code == 0, result.stderr
        assert result.stdout == "second answer\n"
        assert len(srv.requests) == 2
        second = json.dumps(srv.requests[1].json())
        assert "Read the notes" in second and "first answer" in second and "Now summarise" in second


async def test_session_path_that_does_not_exist_is_created_there(project: Project) -> None:
    target = project.root / "logs" / "mine.jsonl"
    async with server(project.api, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "--session", str(target), "hi")
        assert result.code == 0, result.stderr
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    messages = [line["message"] for line in lines if line["type"] == "message"]
    # (the prompt's checkpoint entry may come last: it is recorded once taken, beside the reply)
    assert lines[0]["type"] == "session" and [m["role"] for m in messages] == ["user", "assistant"]


async def test_fork_copies_a_session_into_a_new_one_and_leaves_the_source(project: Project) -> None:
    async with server(project.api, [ScriptedReply(text="one"), ScriptedReply(text="two")]) as srv:
        project.configure(srv.url)
        assert (await project.tau("-p", "--model", MODEL, "first")).code == 0
        [source] = project.session_files()
        before = source.read_bytes()
        session_id = json.loads(before.splitlines()[0])["id"]
        result = await project.tau("-p", "--model", MODEL, "--fork", session_id[:8], "second")
        assert result.code == 0, result.stderr
        assert "first" in json.dumps(srv.requests[1].json())
    assert source.read_bytes() == before
    [fork] = [p for p in project.session_files() if p != source]
    header = json.loads(fork.read_text().splitlines()[0])
    assert header["parentSession"] == str(source) and header["id"] != session_id
    clash = await project.tau("-p", "--fork", session_id[:8], "--no-session", "x")
    assert clash.code == 2 and clash.stderr == "tau: --fork cannot be combined with --no-session\n"


async def test_export_writes_markdown_when_the_output_ends_in_md(project: Project) -> None:
    async with server(project.api, [ScriptedReply(text="The answer is 42.")]) as srv:
        project.configure(srv.url)
        assert (await project.tau("-p", "--model", MODEL, "question")).code == 0
    [source] = project.session_files()
    out = project.root / "talk.md"
    result = await project.tau("--export", str(source), str(out))
    assert result.code == 0, result.stderr
    assert result.stdout == f"Exported to: {out}\n"
    assert "The answer is 42." in out.read_text()
    html = await project.tau("--export", str(source))
    assert html.code == 0 and (project.root / f"{source.stem}.html").is_file()


async def test_list_models_shows_only_models_usable_now(project: Project) -> None:
    project.configure("http://127.0.0.1:9/v1")
    result = await project.tau("--list-models")
    assert result.code == 0, result.stderr
    providers = {line.split()[0] for line in result.stdout.splitlines()[1:]}
    assert providers == {"scripted"}  # no ANTHROPIC_API_KEY etc. in this environment
    everything = await project.tau("--list-models", "--all")
    assert {"anthropic", "scripted"} <= {line.split()[0] for line in everything.stdout.splitlines()[1:]}


async def test_no_context_files_leaves_agents_md_out(project: Project) -> None:
    (project.root / "AGENTS.md").write_text("Always answer in French.\n")
    async with server(project.api, [ScriptedReply(text="a"), ScriptedReply(text="b")]) as srv:
        project.configure(srv.url)
        assert (await project.tau("-p", "--model", MODEL, "--no-session", "x")).code == 0
        assert (await project.tau("-p", "--model", MODEL, "--no-session", "-nc", "x")).code == 0
        assert "Always answer in French." in _system(srv.requests[0].json())
        assert "Always answer in French." not in _system(srv.requests[1].json())


async def test_skill_and_prompt_template_paths_load_even_without_discovery(project: Project) -> None:
    skill = project.root / "extra" / "deploy" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: deploy\ndescription: Ship the app to staging.\n---\nRun make ship.\n")
    template = project.root / "extra" / "review.md"
    template.write_text("Review $1 carefully.\n")
    async with server(project.api, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        result = await project.tau(
            "-p", "--model", MODEL, "-ns", "-np", "--skill", "extra/deploy",
            "--prompt-template", str(template), "/review main.py",
        )  # fmt: skip
        assert result.code == 0, result.stderr
        body = srv.requests[0].json()
    assert "Ship the app to staging." in _system(body)
    assert "Review main.py carefully." in json.dumps(body["messages"][-1])


async def test_no_builtin_tools_keeps_extension_tools_and_tools_names_them(project: Project) -> None:
    (project.root / "a.txt").write_text("1\n2\n3\n")
    call = ScriptedCall("call_000000001", "count_lines", {"path": "a.txt"})
    replies = [ScriptedReply(calls=[call]), ScriptedReply(text="three"), ScriptedReply(text="x")]
    async with server(project.api, replies) as srv:
        project.configure(srv.url)
        project.run_everything()  # an extension's tool is not one the workspace mode runs unasked
        result = await project.tau("-p", "--model", MODEL, "-nbt", "-e", str(COUNT_LINES), "count")
        assert result.code == 0, result.stderr
        assert _tool_names(srv.requests[0].json()) == ["count_lines"]
        assert "a.txt: 3 lines" in json.dumps(srv.requests[1].json())
        result = await project.tau(
            "-p", "--model", MODEL, "-t", "read,count_lines", "-e", str(COUNT_LINES), "x"
        )
        assert result.code == 0, result.stderr
        assert sorted(_tool_names(srv.requests[2].json())) == ["count_lines", "read"]
    unknown = await project.tau("-p", "--model", MODEL, "-t", "read,nope", "x")
    assert unknown.code == 2 and "unknown tool 'nope'" in unknown.stderr


async def test_session_dir_setting_is_where_sessions_go(project: Project) -> None:
    async with server(project.api, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        (project.tau_home / "settings.json").write_text(json.dumps({"sessionDir": "~/kept"}))
        result = await project.tau("-p", "--model", MODEL, "hi")
        assert result.code == 0, result.stderr
    assert len(list((project.home / "kept").glob("*.jsonl"))) == 1
    assert project.session_files() == []


async def test_models_json_header_values_resolve_like_api_keys(project: Project) -> None:
    async with server(project.api, [ScriptedReply(text="ok")]) as srv:
        project.configure(srv.url)
        models = json.loads((project.tau_home / "models.json").read_text())
        models["providers"]["scripted"]["headers"] = {
            "X-Team": "TAU_TEST_TEAM",  # an environment variable's name: its value
            "X-Build": "!echo built-by-command",  # a command: its output
            "X-Plain": "just text",  # anything else: itself
        }
        (project.tau_home / "models.json").write_text(json.dumps(models))
        env = project.env() | {"TAU_TEST_TEAM": "blue"}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tau_coding", "-p", "--model", MODEL, "hi",
            cwd=project.root, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode == 0, err.decode()
        headers = srv.requests[0].headers
    assert (headers["x-team"], headers["x-build"], headers["x-plain"]) == (
        "blue",
        "built-by-command",
        "just text",
    )

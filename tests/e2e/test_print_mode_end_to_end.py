"""The whole agent from the command line: ``tau -p`` against a local server speaking each API."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tau_ai.testing.replay_server import Scripted
from tau_ai.testing.scripted_streams import APIS, ScriptedCall, ScriptedReply, sse_body
from tests.e2e.scripted_project import MODEL, Project, server


@pytest.fixture(params=APIS)
def project(request: pytest.FixtureRequest, tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", request.param)


@pytest.fixture
def chat_project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", "openai-completions")


def _call(name: str, args: dict[str, object], n: int = 1) -> ScriptedCall:
    return ScriptedCall(f"call_{n:09d}", name, args)


def _sent_text(body: dict[str, object]) -> str:
    return json.dumps(body)


async def test_read_then_answer_prints_only_the_answer(project: Project) -> None:
    (project.root / "config.py").write_text("PORT = 9090\n")
    replies = [
        ScriptedReply(text="Let me look.", calls=[_call("read", {"path": "config.py"})]),
        ScriptedReply(chunks=("The port ", "is 9090.")),
    ]
    async with server(project.api, replies) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "Which port?")
        assert result.code == 0, result.stderr
        assert result.stdout == "The port is 9090.\n"
        assert len(srv.requests) == 2
        assert "PORT = 9090" in _sent_text(srv.requests[1].json())


async def test_thinking_then_tool_then_answer(project: Project) -> None:
    (project.root / "a.txt").write_text("alpha\n")
    replies = [
        ScriptedReply(thinking="I should read a.txt first.", calls=[_call("read", {"path": "a.txt"})]),
        ScriptedReply(text="It says alpha."),
    ]
    async with server(project.api, replies) as srv:
        project.configure(srv.url)
        result = await project.tau("-p", "--model", MODEL, "--thinking", "low", "What does a.txt say?")
        assert (result.code, result.stdout) == (0, "It says alpha.\n"), result.stderr


async def test_edit_changes_the_file_on_disk(chat_project: Project) -> None:
    target = chat_project.root / "app.py"
    target.write_text("def total(xs):\n    return 0\n")
    edit = {"path": "app.py", "edits": [{"oldText": "return 0", "newText": "return sum(xs)"}]}
    replies = [ScriptedReply(calls=[_call("edit", edit)]), ScriptedReply(text="Fixed.")]
    async with server(chat_project.api, replies) as srv:
        chat_project.configure(srv.url)
        result = await chat_project.tau("-p", "--model", MODEL, "fix total")
        assert result.code == 0, result.stderr
    assert target.read_text() == "def total(xs):\n    return sum(xs)\n"


async def test_bash_runs_in_the_project(chat_project: Project) -> None:
    replies = [
        ScriptedReply(calls=[_call("bash", {"command": "echo built > out.txt && pwd"})]),
        ScriptedReply(text="Done."),
    ]
    async with server(chat_project.api, replies) as srv:
        chat_project.configure(srv.url)
        chat_project.run_everything()
        result = await chat_project.tau("-p", "--model", MODEL, "build it")
        assert result.code == 0, result.stderr
        assert str(chat_project.root) in _sent_text(srv.requests[1].json())
    assert (chat_project.root / "out.txt").read_text() == "built\n"


async def test_parallel_reads_both_reach_the_model(chat_project: Project) -> None:
    (chat_project.root / "a.txt").write_text("AAA\n")
    (chat_project.root / "b.txt").write_text("BBB\n")
    calls = [_call("read", {"path": "a.txt"}, 1), _call("read", {"path": "b.txt"}, 2)]
    async with server(
        chat_project.api, [ScriptedReply(calls=calls), ScriptedReply(text="Both read.")]
    ) as srv:
        chat_project.configure(srv.url)
        result = await chat_project.tau("-p", "--model", MODEL, "read both")
        assert result.code == 0, result.stderr
        messages = srv.requests[1].json()["messages"]
        tool_messages = [m for m in messages if m["role"] == "tool"]
        assert [m["tool_call_id"] for m in tool_messages] == ["call_000000001", "call_000000002"]
        assert "AAA" in tool_messages[0]["content"] and "BBB" in tool_messages[1]["content"]


async def test_provider_failure_mid_run_exits_1_and_keeps_the_session(chat_project: Project) -> None:
    (chat_project.root / "a.txt").write_text("AAA\n")
    broken = sse_body("openai-completions", ScriptedReply(chunks=("Half an ", "answer that never ends")))
    replies = [
        ScriptedReply(text="Reading.", calls=[_call("read", {"path": "a.txt"})]),
        Scripted(body=broken, cut_after=len(broken) // 2),
    ]
    chat_project.tau_home.mkdir(parents=True, exist_ok=True)  # no agent-level retry of the cut
    (chat_project.tau_home / "settings.json").write_text(json.dumps({"retry": {"enabled": False}}))
    async with server(chat_project.api, replies) as srv:
        chat_project.configure(srv.url)
        result = await chat_project.tau("-p", "--model", MODEL, "go")
    assert result.code == 1 and result.stdout == ""
    assert result.stderr.startswith("Error: ")
    (session,) = chat_project.session_files()
    roles = [
        json.loads(line)["message"]["role"]
        for line in session.read_text().splitlines()
        if json.loads(line).get("type") == "message"
    ]
    assert roles == ["user", "assistant", "toolResult", "assistant"]


async def test_missing_key_is_exit_2_with_one_line(chat_project: Project) -> None:
    result = await chat_project.tau("-p", "--model", "anthropic/claude-sonnet-4-5", "hello")
    assert result.code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "ANTHROPIC_API_KEY" in result.stderr


async def test_no_model_at_all_says_how_to_set_one_up(chat_project: Project) -> None:
    result = await chat_project.tau("-p", "hello")
    assert result.code == 2 and "no model configured" in result.stderr


async def test_continue_resumes_the_latest_session(chat_project: Project) -> None:
    replies = [ScriptedReply(text="First answer."), ScriptedReply(text="Second answer.")]
    async with server(chat_project.api, replies) as srv:
        chat_project.configure(srv.url)
        first = await chat_project.tau("-p", "--model", MODEL, "first question")
        second = await chat_project.tau("-p", "--model", MODEL, "-c", "second question")
        assert (first.code, second.code) == (0, 0), second.stderr
        assert second.stdout == "Second answer.\n"
        sent = [m.get("content") for m in srv.requests[1].json()["messages"]]
        assert "first question" in json.dumps(sent) and "First answer." in json.dumps(sent)
    assert len(chat_project.session_files()) == 1


async def test_json_mode_streams_header_then_events(chat_project: Project) -> None:
    async with server(chat_project.api, [ScriptedReply(chunks=("Hel", "lo."))]) as srv:
        chat_project.configure(srv.url)
        result = await chat_project.tau("-p", "--mode", "json", "--model", MODEL, "hi")
    assert result.code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["type"] == "session" and lines[0]["version"] == 3
    assert lines[-1]["type"] == "agent_settled" and lines[-2]["type"] == "agent_end"
    deltas = [
        e["assistantMessageEvent"]["delta"]
        for e in lines
        if e["type"] == "message_update" and e["assistantMessageEvent"]["type"] == "text_delta"
    ]
    assert deltas == ["Hel", "lo."]


async def test_piped_stdin_and_at_file_reach_the_model(chat_project: Project) -> None:
    (chat_project.root / "spec.md").write_text("# Spec\nMust be fast.\n")
    async with server(chat_project.api, [ScriptedReply(text="Noted.")]) as srv:
        chat_project.configure(srv.url)
        result = await chat_project.tau(
            "-p", "--model", MODEL, "@spec.md", "summarise", stdin="error log line\n"
        )
        assert result.code == 0, result.stderr
        sent = json.dumps(srv.requests[0].json()["messages"])
        assert "error log line" in sent and "Must be fast." in sent and "summarise" in sent


async def test_no_session_writes_nothing(chat_project: Project) -> None:
    async with server(chat_project.api, [ScriptedReply(text="Ok.")]) as srv:
        chat_project.configure(srv.url)
        result = await chat_project.tau("-p", "--no-session", "--model", MODEL, "hi")
    assert result.code == 0 and chat_project.session_files() == []


async def test_first_request_of_an_edit_task_is_no_larger_than_pis(chat_project: Project) -> None:
    async with server(chat_project.api, [ScriptedReply(text="Ok.")]) as srv:
        chat_project.configure(srv.url)
        # Pi's four tools: todo and task are Tau's own, with no counterpart in Pi's request
        tools = ("-t", "read,write,edit,bash")
        result = await chat_project.tau("-p", *tools, "--model", MODEL, "In app.py, rename total to sum_all.")
        assert result.code == 0, result.stderr
        size = len(srv.requests[0].body)
    assert size <= 5_600, f"first request is {size} bytes"


async def test_max_turns_stops_a_stuck_model_with_exit_1(chat_project: Project) -> None:
    (chat_project.root / "a.txt").write_text("x\n")
    stuck = ScriptedReply(text="Again.", calls=[_call("read", {"path": "a.txt"})])
    async with server(chat_project.api, [stuck]) as srv:
        chat_project.configure(srv.url)
        result = await chat_project.tau("-p", "--max-turns", "2", "--model", MODEL, "loop")
        assert len(srv.requests) == 2
    assert result.code == 1 and "max_turns=2" in result.stderr


async def test_interrupt_exits_130_with_nothing_on_stdout(chat_project: Project) -> None:
    import asyncio
    import signal

    slow = Scripted(
        body=sse_body("openai-completions", ScriptedReply(text="slow " * 50)), chunk_size=8, delay=0.2
    )
    async with server(chat_project.api, [slow]) as srv:
        chat_project.configure(srv.url)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tau_coding",
            "-p",
            "--model",
            MODEL,
            "hi",
            cwd=chat_project.root,
            env=chat_project.env(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(100):
            if srv.requests:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        process.send_signal(signal.SIGINT)
        out, _ = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 130 and out == b""


async def test_reload_in_print_mode_re_reads_settings_resources_and_extensions(chat_project: Project) -> None:
    """``tau -p /reload`` is the session's one reload, as in the TUI and RPC: it reads the user's
    files again (a bad settings entry is reported again) and asks the model nothing."""
    chat_project.configure("http://127.0.0.1:9")  # nothing here may reach the model
    (chat_project.tau_home / "settings.json").write_text(json.dumps({"steeringMode": 7}))
    (chat_project.root / "AGENTS.md").write_text("Be brief.\n")
    result = await chat_project.tau("-p", "--model", MODEL, "/reload")
    assert result.code == 0, result.stderr
    assert result.stdout == "Reloaded settings, models and resources.\n"
    warnings = [line for line in result.stderr.splitlines() if "steeringMode" in line]
    assert len(warnings) == 2, result.stderr  # at start-up, and again by the reload


async def test_a_session_open_in_another_process_is_one_line_saying_how_to_carry_it_on(
    chat_project: Project,
) -> None:
    """Two terminals on one session: the second is refused in one line that names the way on."""
    import asyncio

    async with server(chat_project.api, [ScriptedReply(text="First answer.")]) as srv:
        chat_project.configure(srv.url)
        first = await chat_project.tau("-p", "--model", MODEL, "first question")
        assert first.code == 0, first.stderr
        (session,) = chat_project.session_files()
        holder = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tau_coding",
            "--mode",
            "rpc",
            "--model",
            MODEL,
            "--session",
            str(session),
            cwd=chat_project.root,
            env=chat_project.env(),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
        )
        try:
            assert holder.stdin is not None and holder.stdout is not None
            holder.stdin.write(b'{"id": "1", "type": "get_state"}\n')
            await holder.stdin.drain()
            await asyncio.wait_for(holder.stdout.readline(), 30)  # it has the session open
            second = await chat_project.tau("-p", "--model", MODEL, "--session", str(session), "again")
        finally:
            holder.stdin.close()
            await asyncio.wait_for(holder.wait(), 30)
    assert second.code == 2 and second.stdout == "" and second.stderr.count("\n") == 1
    assert "open in another Tau process" in second.stderr and f"tau --fork {session}" in second.stderr

"""Pi's documented RPC examples, sent as written, and bad input, against ``tau --mode rpc``.

The command lines below are the examples of Pi's docs/rpc.md (facts about the format); the
paths and model names they mention are replaced by ones that exist in the test project.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.rpc_project import API, MODEL, configure_two_models, make_project, start
from tests.e2e.scripted_project import Project, server

IMAGE = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

# (command line, expected success, keys the data must have or None for no data)
DOCUMENTED: list[tuple[dict[str, object], bool, set[str] | None]] = [
    ({"id": "req-1", "type": "prompt", "message": "Hello, world!"}, True, None),
    (
        {"type": "get_state"},
        True,
        {
            "model",
            "thinkingLevel",
            "isStreaming",
            "isCompacting",
            "steeringMode",
            "followUpMode",
            "sessionId",
            "autoCompactionEnabled",
            "messageCount",
            "pendingMessageCount",
        },
    ),
    ({"type": "get_messages"}, True, {"messages"}),
    (
        {"type": "set_model", "provider": "scripted", "modelId": "second-model"},
        True,
        {"id", "provider", "api"},
    ),
    ({"type": "cycle_model"}, True, {"model", "thinkingLevel", "isScoped"}),
    ({"type": "get_available_models"}, True, {"models"}),
    ({"type": "set_thinking_level", "level": "high"}, True, None),
    ({"type": "set_steering_mode", "mode": "one-at-a-time"}, True, None),
    ({"type": "set_follow_up_mode", "mode": "one-at-a-time"}, True, None),
    ({"type": "abort_retry"}, True, None),
    ({"type": "bash", "command": "ls -la"}, True, {"output", "exitCode", "cancelled", "truncated"}),
    ({"type": "abort_bash"}, True, None),
    (
        {"type": "get_session_stats"},
        True,
        {
            "sessionFile",
            "sessionId",
            "userMessages",
            "assistantMessages",
            "toolCalls",
            "toolResults",
            "totalMessages",
            "tokens",
            "cost",
        },
    ),
    ({"type": "export_html"}, True, {"path"}),
    ({"type": "export_html", "outputPath": "exported/session.html"}, True, {"path"}),
    ({"type": "get_fork_messages"}, True, {"messages"}),
    ({"type": "get_last_assistant_text"}, True, {"text"}),
    ({"type": "set_session_name", "name": "my-feature-work"}, True, None),
    ({"type": "get_commands"}, True, {"commands"}),
    ({"type": "new_session"}, True, {"cancelled"}),
    (
        {
            "type": "steer",
            "message": "Look at this instead",
            "images": [{"type": "image", "data": IMAGE, "mimeType": "image/png"}],
        },
        True,
        None,
    ),
    ({"type": "abort"}, True, None),
]


async def test_pi_documented_commands_get_pi_shaped_responses(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="Hello back.")]) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project)
        for command, ok, keys in DOCUMENTED:
            await tau.send(command)
            while True:
                line = await tau.next_event()
                if line["type"] == "response":
                    break
            assert line["command"] == command["type"], line
            assert line["success"] is ok, (command, line)
            assert line.get("id") == command.get("id")
            if keys is None:
                assert "data" not in line, line
            else:
                assert keys <= set(line["data"]), (command, line)
            if command["type"] == "prompt":
                await tau.wait_for("agent_settled")
            if command["type"] == "steer":
                await tau.wait_for("agent_settled")
        assert (project.root / "exported" / "session.html").is_file()
        assert await tau.close() == 0


def _pi_python_example(project: Project) -> str:
    """Pi's documented Python client, with its ``pi`` command swapped for Tau's."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tau_coding", "--mode", "rpc", "--no-session", "--model", MODEL],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=project.root,
        env=project.env(),
    )
    assert proc.stdin is not None and proc.stdout is not None
    printed = []
    proc.stdin.write(json.dumps({"type": "prompt", "message": "Hello!"}) + "\n")
    proc.stdin.flush()
    for line in proc.stdout:
        event = json.loads(line)
        if event.get("type") == "message_update":
            delta = event.get("assistantMessageEvent", {})
            if delta.get("type") == "text_delta":
                printed.append(delta["delta"])
        if event.get("type") == "agent_end":
            break
    proc.stdin.close()
    proc.stdout.close()
    assert proc.wait(timeout=30) == 0
    return "".join(printed)


async def test_pis_python_example_client_works_unchanged(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(chunks=("Hi ", "from ", "Tau."))]) as srv:
        project.configure(srv.url)
        assert await asyncio.to_thread(_pi_python_example, project) == "Hi from Tau."
    assert project.session_files() == []  # --no-session


async def test_bad_input_gets_errors_and_stdout_carries_only_protocol_lines(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="fine")]) as srv:
        project.configure(srv.url)
        (project.tau_home / "settings.json").write_text("{ broken")  # a warning, which must go to stderr
        tau = await start(project)
        bad = [
            b"not json\n",
            b"\xff\xfe\xfd\n",
            b"[1]\n",
            b'{"type": 3}\n',
            b'{"type":"prompt","message":null}\n',
            b'{"type":"prompt","message":"a\xe2\x80\xa8b"}\r\n',
        ]
        for raw in bad:
            await tau.send_raw(raw)
        lines = [await tau.next_event() for _ in range(5)]
        assert [(m["command"], m["success"]) for m in lines] == [
            ("parse", False),
            ("parse", False),
            ("parse", False),
            ("parse", False),
            ("prompt", False),
        ]
        events = await tau.wait_for("agent_settled")
        assert events[0] == {"type": "response", "command": "prompt", "success": True}
        assert "a\u2028b" in json.dumps(srv.requests[0].json(), ensure_ascii=False)
        assert (await tau.get_state())["messageCount"] == 2
        assert await tau.close() == 0
        assert "settings.json" in await tau.stderr_text()

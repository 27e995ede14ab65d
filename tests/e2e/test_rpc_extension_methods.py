"""Issue 25's extension methods and UI calls, through real example files loaded by a real
``tau --mode rpc`` process: what reaches the client, and what changes in the session files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tau_ai.testing.scripted_streams import ScriptedReply
from tau_coding.sdk.rpc_client import RpcClient
from tests.e2e.rpc_project import configure_two_models, make_project, start
from tests.e2e.scripted_project import server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "extensions"


def _example(name: str) -> list[str]:
    return ["-e", str(EXAMPLES / f"{name}.py")]


def _handled(events: list[dict[str, Any]]) -> str | None:
    answers = [e for e in events if e.get("type") == "input_handled"]
    assert answers, f"the command was not handled: {[e.get('type') for e in events]}"
    text = answers[-1].get("text")
    return text if isinstance(text, str) else None


def _ui(events: list[dict[str, Any]], method: str) -> list[dict[str, Any]]:
    return [e for e in events if e.get("type") == "extension_ui_request" and e.get("method") == method]


async def test_theme_paste_and_working_message_degrade_as_pi_says_in_rpc(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server("openai-completions", [ScriptedReply(text="Done.")]) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project, *_example("theme_switcher"), *_example("working_words"))
        try:
            flipped = _handled(await tau.prompt_and_wait("/flip-theme light"))
            assert flipped == "theme unchanged: Theme switching not supported in RPC mode"
            pasted = await tau.prompt_and_wait("/snippet review")
            assert [e["text"] for e in _ui(pasted, "set_editor_text")] == [
                "Review the last change for bugs and missing tests."
            ]
            ran = await tau.prompt_and_wait("hello")  # agent_start sets a working message
            assert any(e.get("type") == "agent_start" for e in ran)
            assert not [e for e in ran if e.get("type") == "extension_ui_request"]  # nothing sent (Pi)
            overlay = _handled(await tau.prompt_and_wait("/cheatsheet"))
            assert overlay is None  # custom(..., overlay=True) answers None at once over RPC
        finally:
            assert await tau.close() == 0


async def test_branch_here_labels_the_point_and_continues_in_a_copy(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server("openai-completions", [ScriptedReply(text="First answer.")]) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project, *_example("branch_here"))
        try:
            await tau.prompt_and_wait("first question")
            before = (await tau.get_state())["sessionFile"]
            answer = _handled(await tau.prompt_and_wait("/branch-here before-refactor"))
            after = (await tau.get_state())["sessionFile"]
            texts = [m for m in await tau.get_messages() if m["role"] in ("user", "assistant")]
        finally:
            assert await tau.close() == 0
    assert answer == f"branched into a new session (from {Path(before).name})"
    assert after != before and Path(after).is_file()
    old = [json.loads(line) for line in Path(before).read_text().splitlines()]
    answer_id = [e["id"] for e in old if e["type"] == "message"][-1]  # the newest message, the reply
    labels = [(e["targetId"], e["label"]) for e in old if e["type"] == "label"]
    assert labels == [(answer_id, "before-refactor")]
    copied = [json.loads(line) for line in Path(after).read_text().splitlines()]
    assert copied[0]["parentSession"] == before
    assert len(texts) == 2  # the conversation came along: question and answer


async def test_a_refused_branch_changes_nothing(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    (project.root / "deny.py").write_text(
        "from tau_coding.extensions import Cancel\n"
        "def activate(tau):\n"
        "    tau.on('session_before_fork', lambda event: Cancel('no forks today'))\n"
    )
    async with server("openai-completions", [ScriptedReply(text="Answer.")]) as srv:
        configure_two_models(project, srv.url)
        tau = await start(project, *_example("branch_here"), "-e", str(project.root / "deny.py"))
        try:
            await tau.prompt_and_wait("question")
            before = (await tau.get_state())["sessionFile"]
            answer = _handled(await tau.prompt_and_wait("/branch-here"))
            after = (await tau.get_state())["sessionFile"]
        finally:
            assert await tau.close() == 0
    assert answer is not None and answer.startswith("not branched:") and "no forks today" in answer
    assert after == before


async def test_nudge_starts_a_turn_and_parrot_off_moves_the_session_off_its_model(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server("openai-completions", [ScriptedReply(text="unused")]) as srv:
        configure_two_models(project, srv.url)
        tau = await RpcClient.start(
            ["--model", "parrot/parrot-1", *_example("provider_toggle")], cwd=project.root, env=project.env()
        )
        try:
            listed = {(m["provider"], m["id"]) for m in await tau.get_available_models()}
            assert ("parrot", "parrot-1") in listed
            nudged = await tau.prompt_and_wait("/nudge are you there")  # the command's own run
            assert _handled(nudged) is None and not _ran(nudged)
            assert _ran(await tau.wait_for("agent_settled")), "trigger_turn started no run"
            last = [m for m in await tau.get_messages() if m["role"] == "assistant"][-1]
            assert last["content"][0]["text"] == "parrot: are you there"
            assert _handled(await tau.prompt_and_wait("/parrot off")) == "parrot provider removed"
            state = await tau.get_state()
            after = {(m["provider"], m["id"]) for m in await tau.get_available_models()}
        finally:
            assert await tau.close() == 0
        warnings = await tau.stderr_text()
    assert ("parrot", "parrot-1") not in after
    assert state["model"]["provider"] == "scripted"
    lines = [line for line in warnings.splitlines() if "removed provider 'parrot'" in line]
    assert len(lines) == 1 and "the model is now scripted/" in lines[0]


def _ran(events: list[dict[str, Any]]) -> bool:
    return any(e.get("type") == "agent_end" for e in events)

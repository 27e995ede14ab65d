"""Golden session files: Pi-written (v1, v2 hand-written from Pi's migration code; v3 written by Pi
0.73.1 itself) and Tau-written. Each ``*.pi-context.json`` is what Pi's own SessionManager made of
the file; Tau's replay must agree with it. See tests/golden/sessions/README.md."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tau_agent.messages import UserMessage
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.wire import message_to_dict

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "sessions"
SESSIONS = sorted(GOLDEN.glob("*.jsonl"))


def _normalise(messages: list[Any]) -> Any:
    """JSON numbers compare by value (Python writes 0.0 where JavaScript writes 0), and a usage
    without ``totalTokens`` (old Pi files) reads as Tau reads it: 0."""
    for message in messages:
        if isinstance(message.get("usage"), dict):
            message["usage"].setdefault("totalTokens", 0)
    return json.loads(json.dumps(messages), parse_float=float, parse_int=float)


def _tau_view(path: Path) -> dict[str, Any]:
    with JsonlSessionStorage.open(path, read_only=True) as storage:
        log = SessionLog(storage)
        state = log.state()
        return {
            "leafId": log.leaf_id,
            "name": state.name,
            "labels": state.labels,
            "model": None
            if state.model is None
            else {"provider": state.model.provider, "modelId": state.model.model_id},
            "thinkingLevel": state.thinking_level,
            "messages": [message_to_dict(m) for m in state.messages],
        }


def test_every_golden_session_has_pis_reading_recorded() -> None:
    assert {p.name for p in SESSIONS} >= {"pi-v1.jsonl", "pi-v2.jsonl", "pi-v3.jsonl", "tau-v3.jsonl"}
    for path in SESSIONS:
        assert path.with_suffix(".pi-context.json").is_file(), path.name


@pytest.mark.parametrize("path", SESSIONS, ids=lambda p: p.name)
def test_tau_replays_each_golden_as_pi_does(path: Path) -> None:
    pi = json.loads(path.with_suffix(".pi-context.json").read_text())
    tau = _tau_view(path)
    assert _normalise(tau["messages"]) == _normalise(pi["messages"])
    assert tau["model"] == pi["model"]
    assert tau["thinkingLevel"] == pi["thinkingLevel"]
    assert tau["name"] == pi["name"]
    if path.name != "pi-v1.jsonl":  # v1 has no ids: migration makes up random ones
        assert tau["labels"] == pi["labels"]


def test_pi_resumes_a_tau_session_on_the_leaf_tau_navigated_to() -> None:
    pi = json.loads((GOLDEN / "tau-v3.pi-context.json").read_text())
    tau = _tau_view(GOLDEN / "tau-v3.jsonl")
    # Pi's leaf is Tau's leaf marker, whose parent is the entry Tau navigated to.
    lines = [json.loads(line) for line in (GOLDEN / "tau-v3.jsonl").read_text().splitlines()]
    marker = lines[-1]
    assert marker["type"] == "custom" and marker["customType"] == "tau.leaf"
    assert pi["leafId"] == marker["id"]
    assert tau["leafId"] == marker["parentId"] == marker["data"]["leafId"]


def test_tau_writes_the_golden_bytes_exactly(tmp_path: Path) -> None:
    out = tmp_path / "tau-v3.jsonl"
    subprocess.run(
        [sys.executable, str(GOLDEN / "regenerate.py"), "--out", str(out)], check=True, capture_output=True
    )
    assert out.read_bytes() == (GOLDEN / "tau-v3.jsonl").read_bytes()


def _pi_package() -> str | None:
    package = os.environ.get("PI_PACKAGE")
    return package if package and Path(package).is_file() and shutil.which("node") else None


@pytest.mark.skipif(_pi_package() is None, reason="set PI_PACKAGE to pi-coding-agent's dist/index.js to run")
def test_pi_itself_reads_a_fresh_tau_session_as_tau_does(tmp_path: Path) -> None:
    out = tmp_path / "fresh.jsonl"
    subprocess.run(
        [sys.executable, str(GOLDEN / "regenerate.py"), "--out", str(out)], check=True, capture_output=True
    )
    result = subprocess.run(
        ["node", str(GOLDEN / "pi" / "read_context.mjs"), str(out)],
        check=True,
        capture_output=True,
        text=True,
    )
    pi = json.loads(result.stdout)
    tau = _tau_view(out)
    assert _normalise(tau["messages"]) == _normalise(pi["messages"])
    assert (tau["model"], tau["thinkingLevel"], tau["name"], tau["labels"]) == (
        pi["model"],
        pi["thinkingLevel"],
        pi["name"],
        pi["labels"],
    )


def test_tau_continues_a_pi_session_by_appending_only(tmp_path: Path) -> None:
    path = tmp_path / "pi.jsonl"
    original = (GOLDEN / "pi-v3.jsonl").read_bytes()
    path.write_bytes(original)
    log = SessionLog(JsonlSessionStorage.open(path))
    leaf = log.leaf_id
    added = log.append_message(UserMessage("continuing in Tau"))
    log.close()
    assert added.parent_id == leaf
    data = path.read_bytes()
    assert data.startswith(original) and data.count(b"\n") == original.count(b"\n") + 1
    view = _tau_view(path)
    assert view["messages"][-1]["content"] == "continuing in Tau"

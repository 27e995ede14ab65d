"""Run the real ``tau`` command against a local model server that streams scripted replies.

A test writes a models.json naming a provider at the server's URL, in any of the five wire
APIs, and runs ``tau`` as a subprocess in a temporary project with its own HOME and TAU_HOME.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body

MODEL = "scripted/scripted-model"


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str


@dataclass
class Project:
    root: Path
    home: Path
    api: str

    @property
    def tau_home(self) -> Path:
        return self.home / ".tau"

    def configure(self, url: str, *, api_key: str | None = "test-key") -> None:
        provider: dict[str, object] = {
            "baseUrl": url,
            "api": self.api,
            "models": [
                {"id": "scripted-model", "reasoning": True, "contextWindow": 200000, "maxTokens": 8192}
            ],
        }
        if api_key is not None:
            provider["apiKey"] = api_key
        if self.api in ("google-vertex", "anthropic-vertex"):  # Vertex URLs name a project and location
            provider["compat"] = {"vertexProject": "scripted-project", "vertexLocation": "us-central1"}
        self.tau_home.mkdir(parents=True, exist_ok=True)
        (self.tau_home / "models.json").write_text(json.dumps({"providers": {"scripted": provider}}))

    def run_everything(self) -> None:
        """Pi's behaviour for this project's Tau: ``permissions.defaultMode: "yolo"`` in the
        user's settings (print mode would otherwise deny commands; docs/permissions.md)."""
        path = self.tau_home / "settings.json"
        data = json.loads(path.read_text()) if path.exists() else {}
        data.setdefault("permissions", {})["defaultMode"] = "yolo"
        self.tau_home.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data))

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.endswith("_API_KEY") and k not in ("TAU_HOME", "HF_TOKEN")
        }
        env.update(HOME=str(self.home), TAU_HOME=str(self.tau_home))
        return env

    async def tau(self, *args: str, stdin: str = "") -> Result:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tau_coding",
            *args,
            cwd=self.root,
            env=self.env(),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(process.communicate(stdin.encode()), 60)
        assert process.returncode is not None
        return Result(process.returncode, out.decode(), err.decode())

    def session_files(self) -> list[Path]:
        return sorted((self.tau_home / "sessions").rglob("*.jsonl"))


def responses(api: str, replies: Sequence[ScriptedReply | Scripted]) -> list[Scripted]:
    return [r if isinstance(r, Scripted) else Scripted(body=sse_body(api, r)) for r in replies]


def server(
    api: str, replies: Sequence[ScriptedReply | Scripted], *, keep_alive: bool = False
) -> ReplayServer:
    return ReplayServer(responses(api, replies), keep_alive=keep_alive)

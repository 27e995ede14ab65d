"""A throwaway project for running the installed ``tau`` command against a local model server.

``TauProject.create(folder, api, url)`` makes a project directory (with ``config.py``), a HOME
whose ``~/.tau/models.json`` names one model, ``local/m``, served at ``url`` in wire API
``api``, and optional ``settings.json``. ``argv`` and ``env`` run the installed console script
(``.venv/bin/tau``) there; ``session_files`` lists what it wrote.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.bench_cli import tau_executable
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body

MODEL = "local/m"
FILE_TEXT = "PORT = 9090\n"
ANSWER = "The port is 9090."


@dataclass(frozen=True)
class TauProject:
    root: Path
    home: Path

    @classmethod
    def create(
        cls,
        folder: Path,
        api: str,
        url: str,
        *,
        settings: Mapping[str, Any] | None = None,
        context_window: int = 200_000,
    ) -> TauProject:
        root, home = folder / "project", folder / "home"
        root.mkdir(parents=True, exist_ok=True)
        (root / "config.py").write_text(FILE_TEXT)
        tau_home = home / ".tau"
        tau_home.mkdir(parents=True, exist_ok=True)
        model = {"id": "m", "contextWindow": context_window, "maxTokens": 4096}
        provider = {"baseUrl": url, "api": api, "apiKey": "test-key", "models": [model]}
        if api in ("google-vertex", "anthropic-vertex"):  # Vertex URLs name a project and location
            provider["compat"] = {"vertexProject": "bench-project", "vertexLocation": "us-central1"}
        (tau_home / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
        if settings is not None:
            (tau_home / "settings.json").write_text(json.dumps(settings))
        return cls(root, home)

    @property
    def tau_home(self) -> Path:
        return self.home / ".tau"

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.endswith("_API_KEY") and k not in ("TAU_HOME", "HF_TOKEN", "PYTHONDONTWRITEBYTECODE")
        }
        env.update(HOME=str(self.home), TAU_HOME=str(self.tau_home))
        return env

    def argv(self, *args: str) -> list[str]:
        return [*tau_executable(), "--model", MODEL, *args]

    def session_files(self) -> list[Path]:
        return sorted((self.tau_home / "sessions").rglob("*.jsonl"))


def read_call(number: int, path: str = "config.py") -> ScriptedReply:
    """A tiny tool turn: a line of text and one ``read`` call (ids unique per ``number``)."""
    return ScriptedReply(
        text="Let me look.", calls=[ScriptedCall(f"call_{number:09d}", "read", {"path": path})]
    )


def answer(text: str = ANSWER) -> ScriptedReply:
    return ScriptedReply(text=text)


def body(api: str, reply: ScriptedReply) -> bytes:
    return sse_body(api, reply)

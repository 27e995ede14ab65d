"""A stand-in model for the examples: a local HTTP server that streams scripted replies.

The examples talk to it exactly as they would to a real provider (an OpenAI-compatible chat
completions endpoint configured in models.json), so they run anywhere, offline, in seconds.
To use a real model instead, drop this and pass ``model="anthropic/claude-sonnet-4-5"`` with
ANTHROPIC_API_KEY set.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from tau_ai.testing.replay_server import ReplayServer, Scripted
from tau_ai.testing.scripted_streams import ScriptedReply, sse_body

MODEL = "local/scripted"


@asynccontextmanager
async def local_model(replies: Sequence[ScriptedReply]) -> AsyncIterator[tuple[Path, dict[str, str]]]:
    """Yields a scratch project folder and the environment that points Tau at the server."""
    server = ReplayServer([Scripted(body=sse_body("openai-completions", r)) for r in replies])
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        home, project = root / "home", root / "project"
        (home / ".tau").mkdir(parents=True)
        project.mkdir()
        async with server:
            provider = {
                "baseUrl": server.url,
                "api": "openai-completions",
                "apiKey": "unused",
                "models": [{"id": "scripted", "contextWindow": 100000, "maxTokens": 4096}],
            }
            (home / ".tau" / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
            environ = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
            environ.update(HOME=str(home), TAU_HOME=str(home / ".tau"))
            yield project, environ

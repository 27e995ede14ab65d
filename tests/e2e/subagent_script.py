"""A scripted model that plays a parent and its children, told apart by what each request holds.

The parent's first request is answered with one ``task`` call per child; each child's request
(its system prompt says it runs as a subagent) is answered by that child's script, found by a
marker word in its prompt; once the parent's request holds every child's result it answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tau_ai.testing.replay_server import RecordedRequest, Scripted
from tau_ai.testing.scripted_streams import ScriptedCall, ScriptedReply, sse_body

API = "openai-completions"
CHILD_MARK = "You run as a subagent"


@dataclass
class Child:
    """A child found by ``marker`` in its prompt: ``first`` answers its first request, ``then``
    every later one (after its tool results)."""

    marker: str
    first: ScriptedReply | Scripted
    then: ScriptedReply | Scripted | None = None
    delay: float = 0.0


@dataclass
class Script:
    children: Sequence[Child]
    final: str = "All reports are in."
    agent: str | None = None
    extra_args: Mapping[str, Any] = field(default_factory=dict)

    def calls(self) -> list[ScriptedCall]:
        out = []
        for n, child in enumerate(self.children, 1):
            args: dict[str, Any] = {"description": f"job {n}", "prompt": f"Please {child.marker}."}
            if self.agent:
                args["agent"] = self.agent
            out.append(ScriptedCall(f"call_task_{n}", "task", {**args, **self.extra_args}))
        return out

    def responder(self) -> Callable[[RecordedRequest, int], Scripted]:
        def respond(request: RecordedRequest, index: int) -> Scripted:
            body = request.json()
            text = json.dumps(body)
            if CHILD_MARK in text:
                prompt = next(m for m in body["messages"] if m["role"] == "user")
                child = next(c for c in self.children if c.marker in json.dumps(prompt))
                has_results = any(m["role"] == "tool" for m in body["messages"])
                reply = child.then if has_results and child.then is not None else child.first
                return _scripted(reply, child.delay if not has_results else 0.0)
            if body["messages"][-1]["role"] == "tool":
                return _scripted(ScriptedReply(text=self.final), 0.0)
            return _scripted(ScriptedReply(text="Starting subagents.", calls=self.calls()), 0.0)

        return respond


def _scripted(reply: ScriptedReply | Scripted, delay: float) -> Scripted:
    if isinstance(reply, Scripted):
        return reply
    return Scripted(body=sse_body(API, reply), delay=delay, split_at=(1,) if delay else ())

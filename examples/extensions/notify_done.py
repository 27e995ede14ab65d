"""A notice when the agent is done: the first words of its answer, and a terminal bell.

Useful when a long run goes on in another window. ``agent_end`` comes once per prompt, after
the last turn.
"""

from __future__ import annotations

from tau_agent.events import AgentEndEvent
from tau_agent.messages import AssistantMessage
from tau_coding.extensions import ExtensionAPI


def activate(tau: ExtensionAPI) -> None:
    @tau.on("agent_end")
    def done(event: AgentEndEvent) -> None:
        last = next((m for m in reversed(event.messages) if isinstance(m, AssistantMessage)), None)
        said = " ".join((last.text if last is not None else "").split())
        tau.notify(f"✓ done: {said[:60]}{'…' if len(said) > 60 else ''}" if said else "✓ done")

"""``/handoff [task]``: continue in a fresh session that starts with a note of where this one was.

``tau.sessions.new(setup=, with_session=)``, Pi's ``newSession({ setup, withSession })``:
``setup(log)`` writes a custom message into the new session before anyone sees it (the user's
last requests and the task), so the model reads it with the first prompt; ``with_session(tau)``
runs once the new session is shown and says so. A ``session_before_switch`` handler may refuse.
"""

from __future__ import annotations

from tau_agent.content import text_of
from tau_agent.messages import UserMessage
from tau_agent.session.log import SessionLog
from tau_coding.extensions import ExtensionAPI

KEPT = 3  # how many of the user's last requests the note carries


def activate(tau: ExtensionAPI) -> None:
    async def handoff(args: str) -> str:
        asked = [text_of(m.content) for m in tau.session.messages if isinstance(m, UserMessage)]
        left = tau.session.session_file
        lines = [f"Handed off from {left.name if left else 'a session in memory'}."]
        lines += [f"- earlier request: {text}" for text in asked[-KEPT:]]
        if args.strip():
            lines.append(f"Task now: {args.strip()}")
        note = "\n".join(lines)

        def setup(log: SessionLog) -> None:
            log.append_custom_message("handoff", note, display=True)

        def with_session(api: ExtensionAPI) -> None:
            api.ui.notify(f"handed off: {len(asked[-KEPT:])} request(s) carried over", "info")

        result = await tau.sessions.new(
            parent_session=str(left) if left else None, setup=setup, with_session=with_session
        )
        return f"not handed off: {result.reason}" if result.cancelled else "handed off to a new session"

    tau.register_command("handoff", handoff, description="continue in a new session with a note of this one")

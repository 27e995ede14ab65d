"""Bookmarks and branches from commands: ``/bookmark <label>`` and ``/branch-here [label]``.

``/bookmark`` labels the newest message (``tau.set_label``: a label entry in the session
file, shown by ``/tree``). ``/branch-here`` labels it too (with a label given), then continues in a new session
holding the conversation so far (``tau.sessions.fork(entry, position="at")``, what ``/clone``
does: extensions' ``session_before_fork`` handlers may refuse it). Each one's answer is shown.
"""

from __future__ import annotations

from tau_agent.session.entries import MessageEntry
from tau_coding.extensions import ExtensionAPI


def activate(tau: ExtensionAPI) -> None:
    def last_message() -> str | None:
        """The newest message on the path (a label is an entry too: not that one)."""
        return next((e.id for e in reversed(tau.session.log.path()) if isinstance(e, MessageEntry)), None)

    def bookmark(args: str) -> str:
        leaf = last_message()
        if leaf is None:
            return "nothing to bookmark yet"
        tau.set_label(leaf, args.strip() or None)
        return f"bookmarked: {args.strip()}" if args.strip() else "bookmark removed"

    async def branch_here(args: str) -> str:
        leaf = last_message()
        if leaf is None:
            return "nothing to branch from yet"
        if args.strip():
            tau.set_label(leaf, args.strip())
        left = tau.session.session_file
        result = await tau.sessions.fork(leaf, position="at")
        if result.cancelled:
            return f"not branched: {result.reason}"
        return f"branched into a new session (from {left.name if left else 'memory'})"

    tau.register_command(
        "bookmark", bookmark, description="label this point of the session: /bookmark <label>"
    )
    tau.register_command("branch-here", branch_here, description="continue in a copy of this session")

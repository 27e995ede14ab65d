"""The event bus: announces each finished prompt on the ``tau.done`` channel, and shows what others say.

Another extension can listen with ``tau.events.on("tau.done", fn)`` or talk on ``notes``.
"""

from __future__ import annotations

from typing import Any

from tau_coding.extensions import ExtensionAPI


def activate(tau: ExtensionAPI) -> None:
    prompts = 0

    @tau.on("agent_settled")
    def done(event: object) -> None:
        nonlocal prompts
        prompts += 1
        tau.events.emit("tau.done", {"prompts": prompts})

    def show(note: Any) -> None:
        tau.notify(f"note: {note}")

    tau.events.on("notes", show)

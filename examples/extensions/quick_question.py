"""An ``input`` rewrite: ``?q how do I ...`` becomes a request for a short answer without tools."""

from __future__ import annotations

from tau_coding.extensions import ExtensionAPI, InputEvent, InputTransform


def activate(tau: ExtensionAPI) -> None:
    @tau.on("input")
    def rewrite(event: InputEvent) -> InputTransform | None:
        if not event.text.startswith("?q "):
            return None
        question = event.text[3:].strip()
        return InputTransform(f"Answer in at most three sentences, without using tools: {question}")

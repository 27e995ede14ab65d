"""The model and thinking level in the status line, kept current by ``model_select`` and
``thinking_level_select`` (whoever changed them: ``/model``, a cycle key, RPC, an extension)."""

from __future__ import annotations

from tau_coding.extensions import ExtensionAPI, ModelSelectEvent, SessionStartEvent, ThinkingSelectEvent


def activate(tau: ExtensionAPI) -> None:
    def show(model_id: str, level: str) -> None:
        tau.set_status("model", f"{model_id} · thinking {level}")

    @tau.on("session_start")
    def start(event: SessionStartEvent) -> None:
        show(tau.model.id, tau.thinking_level)

    @tau.on("model_select")
    def model(event: ModelSelectEvent) -> None:
        show(event.model.id, tau.thinking_level)

    @tau.on("thinking_level_select")
    def thinking(event: ThinkingSelectEvent) -> None:
        show(tau.model.id, event.level)

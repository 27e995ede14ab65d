"""A model router: hard prompts go to a big model, the rest to a small one.

Reads the settings ``router.big`` and ``router.small`` (``"provider/model-id"``) and the
model registry (``tau.available_models()``); an ``input`` handler picks the model before the
prompt runs. A prompt is hard when it starts with ``!!big`` (taken off) or is long.
"""

from __future__ import annotations

from tau_coding.extensions import ExtensionAPI, InputEvent, InputTransform

LONG = 400


def activate(tau: ExtensionAPI) -> None:
    def pick(setting: str) -> None:
        wanted = str(tau.setting(setting, ""))
        provider, _, model_id = wanted.partition("/")
        model = tau.find_model(provider, model_id)
        if model is None:
            if wanted:
                tau.notify(f"router: no model {wanted!r} in the registry", "warning")
            return
        if model is not tau.model:
            tau.set_model(model)
            tau.set_status("router", f"→ {model.id}")

    @tau.on("input")
    def route(event: InputEvent) -> InputTransform | None:
        if event.text.startswith("!!big "):
            pick("router.big")
            return InputTransform(event.text[len("!!big ") :])
        pick("router.big" if len(event.text) > LONG else "router.small")
        return None

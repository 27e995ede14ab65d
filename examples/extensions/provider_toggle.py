"""A provider that can be withdrawn, and a nudge that makes the model answer at once.

Model ``parrot/parrot-1`` repeats the last thing said to it. ``/parrot off`` withdraws the
provider (``tau.unregister_provider``): its model leaves the model list and picker, and a
session on it moves to another model with one warning line; ``/parrot on`` registers it again.
``/nudge <text>`` puts a note in the conversation and has the model answer it now
(``tau.send_message(..., trigger_turn=True)``), in the TUI, RPC and print mode alike.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from tau_agent.assistant_builder import AssistantMessageBuilder
from tau_agent.content import TextContent
from tau_agent.messages import CustomMessage, UserMessage
from tau_agent.provider import Context, ModelProvider, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent
from tau_ai.model import Model
from tau_coding.extensions import ExtensionAPI

MODEL = Model(id="parrot-1", api="parrot", provider="parrot", base_url="local://parrot", name="Parrot")


class Parrot:
    api, provider = "parrot", "parrot"

    def __init__(self, model: Model) -> None:
        self.model = model.id

    async def stream(self, context: Context, options: StreamOptions) -> AsyncIterator[AssistantMessageEvent]:
        last = next(
            (m for m in reversed(context.messages) if isinstance(m, UserMessage | CustomMessage)), None
        )
        content = last.content if last is not None else ""
        said = (
            content
            if isinstance(content, str)
            else "".join(b.text for b in content if isinstance(b, TextContent))
        )
        builder = AssistantMessageBuilder(api=self.api, provider=self.provider, model=self.model)
        for batch in (
            builder.start(),
            builder.text_delta(f"parrot: {said}"),
            builder.close_block(),
            builder.finish(),
        ):
            for event in batch:
                yield event


def make(model: Model) -> ModelProvider:
    return Parrot(model)


def activate(tau: ExtensionAPI) -> None:
    tau.register_provider("parrot", make, models=[MODEL])

    def parrot(args: str) -> str:
        if args.strip() == "off":
            tau.unregister_provider("parrot")
            return "parrot provider removed"
        tau.register_provider("parrot", make, models=[MODEL])
        return "parrot provider registered"

    def nudge(args: str) -> None:
        tau.send_message("nudge", args.strip() or "go on", trigger_turn=True)

    tau.register_command("parrot", parrot, description="/parrot on|off: the parrot provider")
    tau.register_command("nudge", nudge, description="a note the model answers at once")

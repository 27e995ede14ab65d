"""A provider written in Python: model ``echo/echo-1`` answers with the user's last words.

``tau -e examples/extensions/custom_provider.py --model echo/echo-1 -p "hello"`` prints
``echo: hello``. A real one would proxy an HTTP API (``register_provider(name, wire=...)``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from tau_agent.assistant_builder import AssistantMessageBuilder
from tau_agent.content import TextContent
from tau_agent.messages import UserMessage
from tau_agent.provider import Context, ModelProvider, StreamOptions
from tau_agent.stream_events import AssistantMessageEvent
from tau_ai.model import Model
from tau_coding.extensions import ExtensionAPI

MODEL = Model(id="echo-1", api="echo", provider="echo", base_url="local://echo", name="Echo")


class EchoProvider:
    api, provider = "echo", "echo"

    def __init__(self, model: Model) -> None:
        self.model = model.id

    async def stream(self, context: Context, options: StreamOptions) -> AsyncIterator[AssistantMessageEvent]:
        last = next((m for m in reversed(context.messages) if isinstance(m, UserMessage)), None)
        if last is None:
            said = ""
        elif isinstance(last.content, str):
            said = last.content
        else:
            said = "".join(b.text for b in last.content if isinstance(b, TextContent))
        builder = AssistantMessageBuilder(api=self.api, provider=self.provider, model=self.model)
        for batch in (
            builder.start(),
            builder.text_delta(f"echo: {said}"),
            builder.close_block(),
            builder.finish(),
        ):
            for event in batch:
                yield event


def make(model: Model) -> ModelProvider:
    return EchoProvider(model)


def activate(tau: ExtensionAPI) -> None:
    tau.register_provider("echo", make, models=[MODEL])

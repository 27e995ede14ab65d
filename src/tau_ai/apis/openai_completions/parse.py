"""Chat Completions stream -> canonical events, for OpenAI and every compatible host.

The chunk rules live in ``tau_ai.apis._chat_stream`` (shared with Mistral); this module names
the API the messages carry.
"""

from __future__ import annotations

from tau_ai.apis._chat_stream import ChatStreamParser
from tau_ai.model import Model

API = "openai-completions"


class CompletionsParser(ChatStreamParser):
    def __init__(self, model: Model) -> None:
        super().__init__(API, model)

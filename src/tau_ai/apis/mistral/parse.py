"""Mistral chat completions stream -> canonical events.

Mistral speaks the Chat Completions chunk format with two twists the shared parser handles:
``delta.content`` is either a string or a list of typed chunks (``thinking`` chunks from
magistral models hold their own list of text chunks), and a tool call arrives whole in one
chunk, without an ``index``. Usage rides on the chunk with the finish reason.
"""

from __future__ import annotations

from tau_ai.apis._chat_stream import ChatStreamParser
from tau_ai.model import Model

API = "mistral-conversations"


class MistralParser(ChatStreamParser):
    def __init__(self, model: Model) -> None:
        super().__init__(API, model)

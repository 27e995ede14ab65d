"""ScriptedReply and ScriptedCall: what a scripted model answers, whatever the wire API.

``scripted_streams`` renders them as each API's streaming body; ``scripted_bedrock`` as Bedrock's
binary event stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ScriptedCall:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ScriptedReply:
    """One reply. ``text`` streams in ``chunks`` pieces when given (else whole)."""

    text: str = ""
    thinking: str = ""
    calls: Sequence[ScriptedCall] = ()
    chunks: Sequence[str] = field(default_factory=tuple)
    input_tokens: int = 100
    output_tokens: int = 20

    def text_pieces(self) -> list[str]:
        return list(self.chunks) if self.chunks else ([self.text] if self.text else [])

"""The RPC protocol, pinned: a fixed conversation must give exactly the golden transcript.

Regenerate with ``.venv/bin/python -m tests.golden.rpc.transcript`` (see that module).
"""

from __future__ import annotations

from tests.golden.rpc.transcript import GOLDEN, transcript


def test_the_fixed_conversation_gives_the_golden_transcript() -> None:
    assert GOLDEN.exists(), "no golden; run python -m tests.golden.rpc.transcript"
    assert transcript() == GOLDEN.read_text()

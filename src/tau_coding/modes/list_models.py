"""``tau --list-models [pattern]``: the models Tau knows, built-in and from models.json."""

from __future__ import annotations

from typing import TextIO

from tau_ai.models_config import ModelsConfig


def _tokens(n: int) -> str:
    return f"{n // 1_000_000}M" if n >= 1_000_000 and n % 1_000_000 == 0 else f"{n // 1000}k"


def list_models(pattern: str, config: ModelsConfig, out: TextIO, err: TextIO) -> int:
    """The table of ``config``'s models matching ``pattern``; 1 (and a line on ``err``) if none does."""
    needle = pattern.lower()
    rows = [
        m
        for m in config.models
        if not needle or needle in f"{m.provider}/{m.id}".lower() or needle in m.name.lower()
    ]
    if not rows:
        err.write(f"tau: no model matches {pattern!r}\n")
        return 1
    width = max(len(f"{m.provider}/{m.id}") for m in rows)
    out.write(f"{'model':<{width}}  {'context':>7}  {'output':>6}  thinking  images\n")
    for m in rows:
        out.write(
            f"{m.provider + '/' + m.id:<{width}}  {_tokens(m.context_window):>7}  {_tokens(m.max_tokens):>6}  "
            f"{'yes' if m.reasoning else 'no':<8}  {'yes' if m.supports_images else 'no'}\n"
        )
    return 0

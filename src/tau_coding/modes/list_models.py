"""``tau --list-models [pattern]``: the models Tau knows, built-in and from models.json."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from tau_coding.common.diagnostics import warning_line
from tau_coding.config.paths import TauPaths


def _tokens(n: int) -> str:
    return f"{n // 1_000_000}M" if n >= 1_000_000 and n % 1_000_000 == 0 else f"{n // 1000}k"


def list_models(pattern: str, environ: Mapping[str, str], cwd: Path, out: TextIO, err: TextIO) -> int:
    from tau_coding.app.wiring import load_models

    paths = TauPaths.from_env(environ, cwd)
    config = load_models(paths, lambda m: err.write(warning_line(m)))
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

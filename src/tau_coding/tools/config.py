"""ToolSettings: the knobs the coding tools read, with Pi's defaults.

One frozen value handed to ``create_coding_tools``; tools never read settings files or the
environment themselves, so a test or an embedding program states everything it relies on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEFAULT_MAX_LINES = 2000
DEFAULT_MAX_BYTES = 50 * 1024


@dataclass(frozen=True, slots=True)
class ToolSettings:
    """Limits and paths shared by the tools.

            ``max_lines``/``max_bytes`` are the output budget of one result (bytes in UTF-8).
            ``shell_path`` overrides the shell bash runs (else bash, else sh). ``bash_timeout`` is the
            default time limit of one command in seconds (None: no limit unless the model gives one).
            ``use_ripgrep`` lets grep/find use the ``rg`` binary when one is found (``rg_path`` names
            it explicitly); without it they use the pure-Python walker. ``temp_dir`` receives bash's
            full-output logs (default: the system temp directory); a log stops at ``spill_limit`` bytes
        and is removed when the process exits. ``scrub_env`` names environment variables that
    commands (the model's ``bash``, the user's ``!cmd``) do not see: the credentials Tau uses. Images larger than
            ``image_max_dimension`` pixels on a side or ``image_max_bytes`` once base64-encoded are
            downscaled before they reach the model.
    """

    max_lines: int = DEFAULT_MAX_LINES
    max_bytes: int = DEFAULT_MAX_BYTES
    shell_path: str | None = None
    bash_timeout: float | None = 120.0
    use_ripgrep: bool = True
    rg_path: str | None = None
    temp_dir: Path | None = None
    spill_limit: int = 64 * 1024 * 1024
    scrub_env: frozenset[str] = frozenset()
    grep_line_chars: int = 500
    image_max_dimension: int = 2000
    image_max_bytes: int = 4_500_000

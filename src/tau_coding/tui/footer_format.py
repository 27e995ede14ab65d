"""The footer's two lines as styled segments: pure, so the format is tested without a screen."""

from __future__ import annotations

import math
from collections.abc import Sequence

from tau_coding.tui.port import SessionInfo
from tau_coding.tui.state import TuiState
from tau_coding.tui.summaries import short_path, tokens

Segment = tuple[str, str]  # (text, style name: "", "dim", "warn", "bad", "accent")

CONTEXT_WARN, CONTEXT_BAD = 70.0, 90.0


def context_segment(used: int | None, window: int | None) -> Segment:
    """``42.0%/200k``, yellow over 70 %, red over 90 %; ``?`` when the use is not known."""
    if not window:
        return (f"ctx {tokens(used)}" if used else "ctx ?", "dim")
    if used is None:
        return (f"?/{tokens(window)}", "dim")
    pct = 100.0 * used / window
    style = "bad" if pct > CONTEXT_BAD else "warn" if pct > CONTEXT_WARN else ""
    return (f"{pct:.1f}%/{tokens(window)}", style)


def mode_segment(mode: str) -> Segment:
    """``⏵⏵ yolo`` in the warning colour that means "nothing asks"; other modes quieter."""
    style = {"yolo": "warn", "plan": "accent"}.get(mode, "dim")
    return (f"  ⏵⏵ {mode}", style)


def footer_lines(
    info: SessionInfo,
    state: TuiState,
    home: str,
    extras: Sequence[str] = (),
    now: float = 0.0,
    *,
    working: str | None = None,
) -> tuple[list[Segment], list[Segment]]:
    """Line 1: where (cwd, branch, session name). Line 2: model, thinking, tokens, cost, context,
    status (``working`` instead of "working…" when an extension set it, "" for none; the seconds the
    run has taken and until a pending retry, counted from ``now``), extensions' entries."""
    where: list[Segment] = [(short_path(info.cwd, home), "")]
    if info.git_branch:
        where.append((f" ({info.git_branch})", "dim"))
    if info.session_name:
        where.append((f" • {info.session_name}", "accent"))

    u = state.usage
    stats: list[Segment] = []
    if u.input or u.output or u.cache_read or u.cache_write:
        text = f"↑{tokens(u.input)} ↓{tokens(u.output)}"
        if u.cache_read:
            text += f" R{tokens(u.cache_read)}"
        if u.cache_write:
            text += f" W{tokens(u.cache_write)}"
        stats.append((text + "  ", "dim"))
    if u.cost:
        stats.append((f"${u.cost:.3f}  ", "dim"))
    used = state.context_tokens if state.context_tokens is not None else info.context_tokens
    stats.append(context_segment(used, info.context_window))
    stats.append(("  " + info.model_label, "accent"))
    if info.thinking_level and info.thinking_level != "off":
        stats.append((f" • {info.thinking_level}", "dim"))
    if info.permission_mode:
        stats.append(mode_segment(info.permission_mode))
    running = "" if working == "" else f"  {working or 'working…'}"
    if working is None and state.run_started is not None and now - state.run_started >= 1:
        # A model that is slow to answer (a local one loading) still shows it is alive.
        running += f" {int(now - state.run_started)}s · Esc cancels"
    status = {"idle": "", "running": running, "cancelling": "  cancelling…"}[state.status]
    if state.retry_at is not None and state.status == "running":
        seconds = math.ceil(state.retry_at - now)
        status = f"  retrying in {seconds}s · Esc cancels" if seconds > 0 else "  retrying…"
    elif state.compacting and state.status == "running":
        status = "  compacting… · Esc cancels"
    if status:
        stats.append((status, "warn"))
    for text in extras:  # extensions' entries (tau.set_status), such as the task list's count
        stats.append((f"  {text}", "dim"))
    return where, stats

"""An approved plan becomes the task list: its steps read from the plan's text.

``plan_steps`` is pure: the top-level numbered steps of the text (``1.``, ``2)``, ``Step 3:``,
``### 4. ...``) or, when it numbers none, its top-level bullets (``-``, ``*``, ``+``, ``•``,
``- [ ]``). Lines inside code fences are not steps; Markdown emphasis is dropped from a step.
``record_plan`` writes the steps as a session's list (a ``tau.todo`` entry on the path, so a
resume or a move in the tree finds it as it finds any list).
"""

from __future__ import annotations

import re

from tau_agent.session.log import SessionLog
from tau_coding.todo.items import ENTRY_TYPE, MAX_ITEMS, MAX_TEXT, TodoItem

_NUMBERED = re.compile(r"^(?P<indent>\s*)(?:#{1,6}\s*)?(?:step\s+)?\d{1,3}[.):]\s+(?P<text>\S.*)$", re.I)
_BULLET = re.compile(r"^(?P<indent>\s*)[-*+•]\s+(?:\[[ xX~]\]\s+)?(?P<text>\S.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_EMPHASIS = re.compile(r"\*\*|__")


def plan_steps(text: str) -> list[str]:
    """The plan's steps in order (empty when it has neither numbered steps nor bullets)."""
    numbered: list[tuple[int, str]] = []
    bullets: list[tuple[int, str]] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        if match := _NUMBERED.match(line):
            numbered.append((len(match["indent"].expandtabs()), match["text"]))
        elif match := _BULLET.match(line):
            bullets.append((len(match["indent"].expandtabs()), match["text"]))
    chosen = numbered or bullets
    if not chosen:
        return []
    top = min(indent for indent, _ in chosen)
    steps = [_clean(step) for indent, step in chosen if indent == top]
    return [step[:MAX_TEXT] for step in steps if step][:MAX_ITEMS]


def _clean(step: str) -> str:
    return _EMPHASIS.sub("", step).strip().rstrip(":").strip()


def record_plan(log: SessionLog, plan: str) -> int:
    """Make ``plan``'s steps the session's task list, every one pending; returns how many
    (0: no steps found, and the list in force stays)."""
    items = [TodoItem(step) for step in plan_steps(plan)]
    if items:
        log.append_custom(ENTRY_TYPE, {"items": [item.to_dict() for item in items]})
    return len(items)


__all__ = ["plan_steps", "record_plan"]

"""What a hook's answer means, following Claude Code's documented contract.

* Exit 0: success. Stdout may be JSON with the common fields ``continue`` (false stops),
  ``stopReason``, ``systemMessage``, and per event ``decision``/``reason`` or
  ``hookSpecificOutput`` (``permissionDecision`` allow|deny|ask, ``permissionDecisionReason``,
  ``updatedInput``, ``additionalContext``). Plain stdout of UserPromptSubmit and SessionStart
  becomes context for the model.
* Exit 2: a block; stderr is the reason (fed to the model, or shown to the user where the
  model is not involved).
* Anything else, a timeout, or no start: a failure, which blocks only a hook that fails closed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tau_coding.extensions.shell_hooks.config import CommandHook
from tau_coding.extensions.shell_hooks.runner import HookRun

BLOCK_EXIT_CODE = 2


@dataclass(slots=True)
class HookVerdict:
    """All matching hooks of one event, combined: the first block wins; contexts add up."""

    block: bool = False
    reason: str = ""
    ask: bool = False
    allow: bool = False  # a PreToolUse hook's "allow": run without asking (deny rules still hold)
    stop: bool = False  # ``continue: false``: end the run
    updated_input: dict[str, Any] | None = None
    context: str = ""
    warnings: tuple[str, ...] = ()


def _json(stdout: str) -> dict[str, Any] | None:
    text = stdout.strip()
    if not text.startswith("{"):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def interpret(event: str, runs: Sequence[tuple[CommandHook, HookRun]]) -> HookVerdict:
    verdict = HookVerdict()
    contexts: list[str] = []
    warnings: list[str] = []
    for hook, run in runs:
        if run.exit_code == BLOCK_EXIT_CODE:
            _block(verdict, run.stderr.strip() or f"blocked by hook {hook.command!r}")
            continue
        if run.exit_code != 0:
            why = run.failure or f"exited with status {run.exit_code}: {run.stderr.strip()[:300]}"
            warnings.append(f"{event} hook {hook.command!r} {why}")
            if hook.fail_closed:
                _block(verdict, f"{event} hook {hook.command!r} failed ({why}) and fails closed")
            continue
        data = _json(run.stdout)
        if data is None:
            if event in ("UserPromptSubmit", "SessionStart") and run.stdout.strip():
                contexts.append(run.stdout.strip())
            continue
        _read_json(event, data, verdict, contexts, warnings)
    verdict.context = "\n\n".join(contexts)
    verdict.warnings = tuple(warnings)
    return verdict


def _block(verdict: HookVerdict, reason: str) -> None:
    if not verdict.block:
        verdict.block, verdict.reason = True, reason


def _read_json(
    event: str, data: dict[str, Any], verdict: HookVerdict, contexts: list[str], warnings: list[str]
) -> None:
    if isinstance(data.get("systemMessage"), str):
        warnings.append(data["systemMessage"])
    if data.get("continue") is False:
        verdict.stop = True
        _block(verdict, str(data.get("stopReason") or f"{event} hook stopped the run"))
    specific = data.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    decision = specific.get("permissionDecision")
    reason = specific.get("permissionDecisionReason") or data.get("reason") or ""
    if decision is None:  # the older top-level form: "approve" / "block"
        decision = {"block": "deny", "approve": "allow"}.get(str(data.get("decision")))
    if decision == "deny":
        _block(verdict, str(reason) or f"denied by {event} hook")
    elif decision == "ask" and event == "PreToolUse":
        verdict.ask, verdict.reason = True, str(reason)
    elif decision == "allow" and event == "PreToolUse":
        verdict.allow = True
    updated = specific.get("updatedInput")
    if isinstance(updated, dict) and verdict.updated_input is None:
        verdict.updated_input = updated
    extra = specific.get("additionalContext")
    if isinstance(extra, str) and extra.strip():
        contexts.append(extra.strip())

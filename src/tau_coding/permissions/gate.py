"""One session's permissions: the mode, the rules, what the user allowed, and who is asked."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from typing import Any, Literal

from tau_coding.permissions.approver import ApprovalRequest, Approver, summary
from tau_coding.permissions.decision import Decision
from tau_coding.permissions.engine import PROXY_TOOL, decide
from tau_coding.permissions.modes import PermissionMode
from tau_coding.permissions.paths import Places
from tau_coding.permissions.rules import Rule, RuleSet, parse_rule

HookHint = Literal["allow", "ask"] | None
Preview = Callable[[str, Mapping[str, Any]], str | None]
NO_ONE_TO_ASK = "no one can be asked"


class PermissionGate:
    """Decides each tool call (engine.py) and, where the answer is "ask", asks the approver.

    Without an approver (print and JSON modes) "ask" is a denial whose text names the rule or
    the flag that would allow the call; nothing ever waits. ``save_rule`` adds an allow rule
    to the project's settings (the "yes, add to the project" answer); ``preview`` says what a
    call would change, for the question (tools/change_preview.py). ``unasked`` hears each
    distinct denial that asking would have settled, so a print run tells its user too, not only
    the model.
    """

    def __init__(
        self,
        *,
        rules: RuleSet,
        mode: PermissionMode,
        places: Places,
        approver: Approver | None = None,
        save_rule: Callable[[str], None] | None = None,
        sandboxed: Callable[[], bool] = lambda: False,
        preview: Preview | None = None,
    ) -> None:
        self.rules = rules
        self.places = places
        self.approver = approver
        self.save_rule = save_rule
        self.sandboxed = sandboxed
        self.preview = preview
        self.unasked: Callable[[str], object] | None = None
        self._told: set[str] = set()
        self._mode: PermissionMode = mode
        self._remembered: list[Rule] = []
        self._effective = rules
        self._asking = asyncio.Lock()
        self._listeners: list[Callable[[PermissionMode], object]] = []

    @property
    def mode(self) -> PermissionMode:
        return self._mode

    def set_mode(self, mode: PermissionMode) -> None:
        """Change the mode; listeners (the footer, the system prompt) hear of it."""
        if mode == self._mode:
            return
        self._mode = mode
        for listener in list(self._listeners):
            listener(mode)

    def on_mode_change(self, listener: Callable[[PermissionMode], object]) -> None:
        self._listeners.append(listener)

    @property
    def remembered(self) -> tuple[str, ...]:
        """Rules the user allowed for this session, as written."""
        return tuple(rule.text for rule in self._remembered)

    def decide(self, tool: str, args: Mapping[str, Any]) -> Decision:
        # Whether commands run confined matters to commands only; asking starts a sandbox probe
        # (one bwrap process) the first time, which a read, an edit or a grep need not wait for.
        confined = self.sandboxed() if tool in ("bash", PROXY_TOOL) else False
        return decide(tool, args, self._effective, self._mode, self.places, sandboxed=confined)

    async def check(self, tool: str, args: Mapping[str, Any], hook: HookHint = None) -> str | None:
        """None when the call may run; otherwise the error text the model gets.

        ``hook`` is a PreToolUse hook's word: ``allow`` runs what would ask, ``ask`` asks what
        would run (deny rules and plan mode still hold).
        """
        decision = self.decide(tool, args)
        if decision.behavior == "deny":
            return self._denial(decision)
        if hook == "allow" and decision.behavior == "ask":
            return None
        if decision.behavior == "allow" and not (hook == "ask" and self._mode != "yolo"):
            return None
        if hook == "ask" and decision.behavior == "allow":
            decision = Decision("ask", "a PreToolUse hook asks")
        return await self._ask(tool, args, decision)

    async def _ask(self, tool: str, args: Mapping[str, Any], decision: Decision) -> str | None:
        if self.approver is None:
            text = self._denial(decision, asked=False)
            if self.unasked is not None and text not in self._told:
                self._told.add(text)
                self.unasked(text)
            return text
        async with self._asking:  # one question at a time; an earlier answer may settle this one
            again = self.decide(tool, args)
            if again.behavior == "allow" and decision.reason != "a PreToolUse hook asks":
                return None
            shown = self.preview(tool, args) if self.preview is not None else None
            request = ApprovalRequest(
                tool, dict(args), summary(tool, args), decision.reason, decision.suggestions, shown or ""
            )
            answer = await self.approver(request)
        if answer.choice == "deny":
            because = f": {answer.reason}" if answer.reason else ""
            return f"The user denied this {tool} call{because}"
        if answer.choice in ("session", "project"):
            self.remember(decision.suggestions)
            if answer.choice == "project" and self.save_rule is not None:
                for text in decision.suggestions:
                    self.save_rule(text)
        return None

    def remember(self, texts: tuple[str, ...] | list[str]) -> None:
        """Allow ``texts`` (rules) until the session ends."""
        rules = [r for r in (parse_rule(t) for t in texts) if r is not None]
        self._remembered.extend(rules)
        self._effective = self.rules.plus(self._remembered)

    def _denial(self, decision: Decision, *, asked: bool = True) -> str:
        if decision.rule is not None and decision.reason.startswith("denied by"):
            return f"Permission denied: {decision.reason} (permissions.deny)"
        if asked:
            return f"Permission denied: {decision.reason}"
        rules = " or ".join(json.dumps(s) for s in decision.suggestions)
        how = f"add {rules} to permissions.allow in .tau/settings.json, or " if rules else ""
        return (
            f"Permission denied ({self._mode} mode, {NO_ONE_TO_ASK}): {decision.reason}. "
            f"To allow it, {how}run with --permission-mode yolo (or another mode that asks)"
        )

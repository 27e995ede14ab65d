"""Shell hooks as a built-in extension: each Claude Code event on one of Tau's doors.

=====================  ======================  ==============================================
hook event             door                    effect of a block (exit 2, deny, ``block``)
=====================  ======================  ==============================================
SessionStart           session_start,          none; stdout/additionalContext become context
                       session_compact
UserPromptSubmit       input                   the prompt is not sent; the reason is shown
PreToolUse             tool_call               the call is refused; the reason goes to the model
PostToolUse            tool_result (success)   the reason is appended to the result
PostToolUseFailure     tool_result (error)     the reason is appended to the result
Stop                   stop                    the run goes on with the reason as a message
PreCompact             session_before_compact  none
SessionEnd             session_shutdown        none
=====================  ======================  ==============================================

``permissionDecision: "ask"`` asks the user through the UI bridge (print mode: refused).
Context from hooks reaches the model as a hidden ``hook_context`` custom message. A hook's
warnings (failures that fail open, ``systemMessage``) are shown as notices.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from tau_agent.content import TextContent, text_of
from tau_coding.extensions.api import ExtensionAPI
from tau_coding.extensions.events import (
    CompactEvent,
    InputEvent,
    InputHandled,
    SessionStartEvent,
    ShutdownEvent,
    StopDecision,
    StopEvent,
    ToolCallDecision,
    ToolCallEvent,
    ToolResultEvent,
    ToolResultPatch,
)
from tau_coding.extensions.shell_hooks import payload
from tau_coding.extensions.shell_hooks.config import HookConfig
from tau_coding.extensions.shell_hooks.outcome import HookVerdict, interpret
from tau_coding.extensions.shell_hooks.runner import run_hook, run_hook_sync
from tau_coding.extensions.shell_hooks.tool_names import claude_name, from_claude_input
from tau_coding.session.events import CompactionEndEvent

CONTEXT_TYPE = "hook_context"
# Claude Code's SessionStart ``source`` for each of Tau's: ``/new`` clears the conversation; a
# fork continues an earlier one in a new file, as Claude Code's ``--resume --fork-session`` does;
# ``/reload`` starts the hooks afresh on the same conversation.
CLAUDE_SOURCE = {
    "startup": "startup",
    "resume": "resume",
    "fork": "resume",
    "new": "clear",
    "reload": "startup",
}
# The extension's own handler limit must outlast every hook it runs.
HANDLER_SLACK = 5.0


def handler_timeout(config: HookConfig) -> float:
    longest = max(
        (h.timeout for groups in config.events.values() for g in groups for h in g.hooks), default=0.0
    )
    return longest + HANDLER_SLACK


class ShellHooks:
    def __init__(self, config: HookConfig, project: Path) -> None:
        self.config = config
        self.project = project
        self.tau: ExtensionAPI | None = None
        # A SessionStart after a change runs as a task; the next prompt waits for its context.
        self._starting = asyncio.Lock()

    def activate(self, tau: ExtensionAPI) -> None:
        self.tau = tau
        events = self.config.events
        doors: dict[str, tuple[str, Callable[..., Any]]] = {
            "SessionStart": ("session_start", self.session_start),
            "UserPromptSubmit": ("input", self.prompt_submit),
            "PreToolUse": ("tool_call", self.pre_tool_use),
            "Stop": ("stop", self.stop),
            "PreCompact": ("session_before_compact", self.pre_compact),
            "SessionEnd": ("session_shutdown", self.session_end),
        }
        for event, (door, handler) in doors.items():
            if events.get(event):
                tau.on(door, handler)
        if events.get("SessionStart"):
            tau.on("session_compact", self.after_compact)
        if events.get("PostToolUse") or events.get("PostToolUseFailure"):
            tau.on("tool_result", self.post_tool_use)

    # -- plumbing ---------------------------------------------------------------------------

    def _base(self, event: str) -> dict[str, Any]:
        assert self.tau is not None
        session = self.tau.session
        return payload.common(event, session.session_id, session.session_file, self.project)

    async def _run(self, event: str, data: dict[str, Any], *tool_names: str) -> HookVerdict:
        hooks = self.config.hooks_for(event, *tool_names)
        if not hooks:
            return HookVerdict()
        self._write_transcript()
        runs = await asyncio.gather(*(run_hook(h.command, data, self.project, h.timeout) for h in hooks))
        verdict = interpret(event, list(zip(hooks, runs, strict=True)))
        self._warn(verdict)
        return verdict

    def _write_transcript(self) -> None:
        """Claude Code's contract: ``transcript_path`` exists when a hook runs. A new session's
        file waits for its first reply (as in Pi), so with hooks it is written now instead."""
        assert self.tau is not None
        try:
            self.tau.session.write_session_file()
        except OSError as exc:  # the hook still runs; it finds no file, as it would have before
            self.tau.notify(f"hooks: the session file could not be written: {exc}", "warning")

    def _warn(self, verdict: HookVerdict) -> None:
        assert self.tau is not None
        for warning in verdict.warnings:
            self.tau.notify(warning, "warning")

    def _add_context(self, text: str) -> None:
        if text and self.tau is not None:
            self.tau.send_message(CONTEXT_TYPE, text, display=False)

    # -- doors ------------------------------------------------------------------------------

    async def session_start(self, event: SessionStartEvent) -> None:
        await self._session_start(CLAUDE_SOURCE[event.source])

    async def after_compact(self, event: CompactionEndEvent) -> None:
        if event.result is not None:  # the context was replaced by its summary
            await self._session_start("compact")

    async def _session_start(self, source: str) -> None:
        async with self._starting:
            data = self._base("SessionStart") | {"source": source}
            self._add_context((await self._run("SessionStart", data)).context)

    async def prompt_submit(self, event: InputEvent) -> InputHandled | None:
        async with self._starting:  # the context of a SessionStart still running comes first
            pass
        verdict = await self._run("UserPromptSubmit", self._base("UserPromptSubmit") | {"prompt": event.text})
        if verdict.block:
            return InputHandled(f"Prompt blocked by hook: {verdict.reason}")
        self._add_context(verdict.context)
        return None

    async def pre_tool_use(self, event: ToolCallEvent) -> ToolCallDecision | None:
        data = self._base("PreToolUse") | payload.tool_fields(
            event.tool_name, event.tool_call_id, event.input, self.project
        )
        verdict = await self._run("PreToolUse", data, claude_name(event.tool_name), event.tool_name)
        if verdict.stop and self.tau is not None:
            self.tau.session.cancel()
        if verdict.block:
            return ToolCallDecision(block=True, reason=verdict.reason)
        updated = (
            from_claude_input(event.tool_name, verdict.updated_input)
            if verdict.updated_input is not None
            else None
        )
        assert self.tau is not None
        if verdict.ask and self.tau.session.permissions is None:  # no permission engine: ask here
            question = f"Allow {claude_name(event.tool_name)}? {verdict.reason}".strip()
            if not await self.tau.ui.confirm("PreToolUse hook asks", question, default=False):
                return ToolCallDecision(
                    block=True, reason=f"The user did not allow this call. {verdict.reason}".strip()
                )
            return ToolCallDecision(input=updated) if updated is not None else None
        # With the engine, the hook's word is one more input to the same decision (docs/permissions.md).
        permission: Literal["allow", "ask"] | None = (
            "ask" if verdict.ask else "allow" if verdict.allow else None
        )
        if updated is None and permission is None:
            return None
        return ToolCallDecision(input=updated, permission=permission)

    async def post_tool_use(self, event: ToolResultEvent) -> ToolResultPatch | None:
        name = "PostToolUseFailure" if event.is_error else "PostToolUse"
        data = self._base(name) | payload.tool_fields(
            event.tool_name, event.tool_call_id, event.input, self.project
        )
        if event.is_error:
            data |= {"error": text_of(event.content), "is_interrupt": False}
        else:
            data["tool_response"] = payload.tool_response(
                event.tool_name, event.input, event.content, event.details, self.project
            )
        verdict = await self._run(name, data, claude_name(event.tool_name), event.tool_name)
        if verdict.stop and self.tau is not None:
            self.tau.session.cancel()
        notes = [text for text in (verdict.reason if verdict.block else "", verdict.context) if text]
        if not notes:
            return None
        return ToolResultPatch(
            content=[*event.content, TextContent(f"\n\n[{name} hook] " + "\n".join(notes))]
        )

    async def stop(self, event: StopEvent) -> StopDecision | None:
        data = self._base("Stop") | {"stop_hook_active": event.stop_hook_active}
        verdict = await self._run("Stop", data)
        if verdict.block and not verdict.stop:
            return StopDecision(verdict.reason)
        return None

    async def pre_compact(self, event: CompactEvent) -> None:
        data = self._base("PreCompact") | {
            "trigger": event.trigger,
            "custom_instructions": event.custom_instructions,
        }
        await self._run("PreCompact", data)

    def session_end(self, event: ShutdownEvent) -> None:
        if event.reason != "quit":  # SessionEnd is the end of the process, as before
            return
        data = self._base("SessionEnd") | {"reason": "other"}
        hooks = self.config.hooks_for("SessionEnd")
        runs = [run_hook_sync(h.command, data, self.project, h.timeout) for h in hooks]
        self._warn(interpret("SessionEnd", list(zip(hooks, runs, strict=True))))

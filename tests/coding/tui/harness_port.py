"""HarnessSessionAdapter: the SessionPort over a bare AgentHarness.

A test double for the TUI's tests and benchmarks; Tau itself drives the TUI through
``modes/interactive/session_port``. It keeps nothing on disk: there is no session file, so
there is nothing to resume, and models switch only among the providers it was given.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path

from tau_agent.content import ImageContent, TextContent, text_of
from tau_agent.events import AgentEvent
from tau_agent.harness import AgentHarness
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    CustomMessage,
    UserMessage,
)
from tau_agent.provider import THINKING_LEVELS, ModelProvider
from tau_agent.spent import Spent
from tau_coding.tui.git_branch import git_branch
from tau_coding.tui.port import (
    CommandResult,
    CommandSpec,
    ForkPoint,
    QueuedMessages,
    SessionInfo,
    StoredSession,
    TreeFilter,
    TreeRows,
)
from tau_coding.tui.rewind_port import DoubleEscapeAction, RewindChoice, RewindPoints

BASH_OUTPUT_LIMIT = 50_000
UNSUPPORTED = CommandResult("This session is not stored, so it has no such operation.", is_error=True)


class HarnessSessionAdapter:
    """Implements ``SessionPort``; ``providers`` (label -> provider) are what /model can pick."""

    def __init__(
        self,
        harness: AgentHarness,
        *,
        cwd: Path | str,
        providers: Mapping[str, ModelProvider] | None = None,
        context_window: int | None = None,
        session_name: str | None = None,
        reasoning: bool = True,
    ) -> None:
        self.harness = harness
        self._cwd = Path(cwd)
        self._providers = dict(providers or {})
        self._context_window = context_window
        self._name = session_name
        self._reasoning = reasoning
        self._branch = git_branch(self._cwd)
        self._scoped: list[str] = []
        self._label: str | None = None  # the label /model chose (providers may share names)

    @property
    def messages(self) -> Sequence[AgentMessage]:
        return self.harness.messages

    @property
    def is_running(self) -> bool:
        return self.harness.is_running

    def prompt(self, text: str, images: Sequence[ImageContent] = ()) -> AsyncIterator[AgentEvent]:
        return self.harness.prompt([TextContent(text), *images] if images else text)

    def steer(self, text: str) -> None:
        self.harness.steer(text)

    def follow_up(self, text: str) -> None:
        self.harness.follow_up(text)

    def cancel(self) -> None:
        self.harness.cancel()

    def clear_queues(self) -> QueuedMessages:
        steering, follow = self.harness.clear_queues()
        return QueuedMessages(
            [text_of(m.content, image="[image]") for m in steering if isinstance(m, UserMessage)],
            [text_of(m.content, image="[image]") for m in follow if isinstance(m, UserMessage)],
        )

    def cycle_permission_mode(self) -> str | None:
        return None  # a bare harness has no permission engine

    def set_permission_mode(self, mode: str) -> None:
        """Nothing to switch: a bare harness has no permission engine."""

    def approve_plan(self, mode: str) -> str:
        return "The user approved the plan. Carry it out now."

    def info(self) -> SessionInfo:
        provider = self.harness.provider
        return SessionInfo(
            cwd=str(self._cwd),
            model_label=self._label or f"{provider.provider}/{provider.model}",
            thinking_level=self.harness.options.thinking_level,
            session_name=self._name,
            git_branch=self._branch,
            context_window=self._context_window,
        )

    def commands(self) -> Sequence[CommandSpec]:
        return ()

    def render_custom(self, message: CustomMessage) -> str | None:
        del message
        return None

    def shortcuts(self) -> Sequence[tuple[str, str]]:
        return ()

    async def run_shortcut(self, key: str) -> CommandResult | None:
        del key
        return None

    async def run_command(self, name: str, args: str) -> CommandResult | None:
        del name, args
        return None

    async def run_bash(self, command: str, *, exclude_from_context: bool) -> BashExecutionMessage:
        process = await asyncio.create_subprocess_shell(
            command,
            cwd=self._cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        try:
            raw, _ = await process.communicate()
        except asyncio.CancelledError:
            process.kill()
            await process.wait()
            raise
        output = raw.decode("utf-8", "replace")
        truncated = len(output) > BASH_OUTPUT_LIMIT
        message = BashExecutionMessage(
            command,
            output[-BASH_OUTPUT_LIMIT:] if truncated else output,
            process.returncode,
            truncated=truncated,
            exclude_from_context=exclude_from_context,
        )
        if not self.harness.is_running:
            self.harness.replace_messages([*self.harness.messages, message])
        return message

    def models(self) -> Sequence[str]:
        return list(self._providers)

    def set_model(self, label: str) -> CommandResult:
        provider = self._providers.get(label)
        if provider is None:
            return CommandResult(f"Unknown model: {label}", is_error=True)
        self.harness.provider = provider
        self._label = label
        return CommandResult(f"Model: {label}")

    def thinking_levels(self) -> Sequence[str]:
        return THINKING_LEVELS if self._reasoning else ()

    def set_thinking_level(self, level: str) -> None:
        for known in THINKING_LEVELS:
            if known == level:
                self.harness.options.thinking_level = known
                return
        raise ValueError(f"unknown thinking level {level!r}")

    def set_session_name(self, name: str) -> None:
        self._name = name

    async def new_session(self) -> CommandResult:
        if self.harness.is_running:
            return CommandResult("a run is going on", is_error=True)
        self.harness.replace_messages([])
        return CommandResult("")

    def resume_hint(self) -> str | None:
        return None

    def spent(self) -> Spent:
        """A bare harness has no file: its record is all there is."""
        spent = Spent()
        for message in self.harness.messages:
            if isinstance(message, AssistantMessage):
                spent.add(message.usage)
        return spent

    # -- session control: a bare harness has no file, tree or credentials -------------------------

    def list_sessions(self, *, everywhere: bool) -> Sequence[StoredSession]:
        return ()

    async def switch_session(self, ref: str) -> CommandResult:
        return UNSUPPORTED

    async def clone_session(self) -> CommandResult:
        return UNSUPPORTED

    async def import_session(self, path: str) -> CommandResult:
        return UNSUPPORTED

    def rename_session(self, ref: str, name: str) -> CommandResult:
        return UNSUPPORTED

    def delete_session(self, ref: str) -> CommandResult:
        return UNSUPPORTED

    def tree(self, filter: TreeFilter = "default") -> TreeRows:
        return TreeRows.of()

    async def navigate(self, entry_id: str) -> CommandResult:
        return UNSUPPORTED

    async def branch_with_summary(self, entry_id: str) -> CommandResult:
        return UNSUPPORTED

    def set_label(self, entry_id: str, label: str | None) -> CommandResult:
        return UNSUPPORTED

    def fork_points(self) -> Sequence[ForkPoint]:
        return ()

    def rewind_points(self) -> RewindPoints:
        return RewindPoints(error="No checkpoints: this session has no project files.")

    def rewind_preview(self, checkpoint_id: str) -> CommandResult:
        return UNSUPPORTED

    async def rewind(self, checkpoint_id: str, choice: RewindChoice) -> CommandResult:
        return UNSUPPORTED

    def double_escape_action(self) -> DoubleEscapeAction:
        return "tree"

    async def fork(self, entry_id: str) -> CommandResult:
        return UNSUPPORTED

    async def compact(self, focus: str | None) -> CommandResult:
        return CommandResult("Compaction needs a stored session.", is_error=True)

    def export_html(self, path: str | None) -> CommandResult:
        return UNSUPPORTED

    def reload(self) -> CommandResult:
        return CommandResult("Nothing to reload: this session reads no files.", is_error=True)

    def settings(self) -> Sequence[tuple[str, str]]:
        info = self.info()
        return [("model", info.model_label), ("thinking", info.thinking_level)]

    def apply_setting(self, key: str, value: object) -> None:
        """Nothing to apply: a bare harness reads no settings."""

    def login(self, provider: str, key: str) -> CommandResult:
        return CommandResult("Storing keys is not available here.", is_error=True)

    def logout(self, provider: str) -> CommandResult:
        return CommandResult("Removing keys is not available here.", is_error=True)

    def subscription_logins(self) -> Sequence[tuple[str, str, bool]]:
        return []

    async def subscription_login(self, provider: str, show: Callable[[str], object]) -> CommandResult:
        return CommandResult("Logging in is not available here.", is_error=True)

    def scoped_models(self) -> Sequence[str]:
        return list(self._scoped)

    def set_scoped_models(self, labels: Sequence[str]) -> None:
        self._scoped = [label for label in labels if label in self._providers]

    def scoped_level(self, label: str) -> str | None:
        return None

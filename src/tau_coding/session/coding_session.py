"""CodingSession: the harness, the tools, the session file and the user's resources, composed.

It does not re-implement the loop. A prompt is expanded (``/template``, ``/skill:name``), run
by the AgentHarness (its run is driven by ``SessionRun``, run.py), and every message is written to the session on its ``message_end``
before anybody else hears of it (persist, then announce). A run that ends with a transient
failure is run again after a backoff (agent_retry.py); those retries and the ones a provider
makes are reported as ``auto_retry_*`` events, and ``agent_settled`` closes every prompt once
nothing more will happen for it. A model or thinking level becomes a session entry only when it
differs from what the current path records: when it is set, when a new session starts, and
before a prompt (after a resume with ``--model``, or on a branch the tree moved to).
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncGenerator, Callable, Sequence
from pathlib import Path
from typing import Literal

from tau_agent.cancellation import CancellationToken
from tau_agent.content import ImageContent, TextContent
from tau_agent.event_batch import EventBatch, flat
from tau_agent.harness import AgentBusyError, AgentHarness, QueueMode
from tau_agent.messages import AgentMessage, BashExecutionMessage, UserMessage
from tau_agent.provider import ModelProvider, StreamOptions, ThinkingLevel
from tau_agent.session.entries import BranchSummaryEntry
from tau_agent.session.jsonl import JsonlSessionStorage
from tau_agent.session.log import SessionLog
from tau_agent.session.state import PathSettings
from tau_agent.tools import AgentTool, AgentToolResult
from tau_ai.model import Model
from tau_coding.common.escape_stripping import safe_text
from tau_coding.permissions.gate import PermissionGate
from tau_coding.resources.loader import Resources
from tau_coding.session.agent_retry import AgentRetry
from tau_coding.session.checkpointing import CheckpointWait, PendingCheckpoint, SessionCheckpoints
from tau_coding.session.compaction.context_usage import ContextUsage
from tau_coding.session.compaction.result import CompactionResult
from tau_coding.session.compaction.settings import CompactionSettings
from tau_coding.session.compactor import SessionCompactor
from tau_coding.session.events import InputHandledEvent, SessionEvent
from tau_coding.session.hooks import ModelSource, SessionHooks
from tau_coding.session.mcp_port import McpControl
from tau_coding.session.reply_retry import RetrySettings
from tau_coding.session.request_checkpoints import RequestCheckpoints
from tau_coding.session.run import SessionListener, SessionRun
from tau_coding.session.settings_choice import SessionSettings
from tau_coding.tools.bash import run_command
from tau_coding.tools.config import ToolSettings

ProviderFactory = Callable[[Model], ModelProvider]
SettingsRestorer = Callable[[PathSettings, SessionSettings], SessionSettings]


class CodingSession(SessionRun):
    def __init__(
        self,
        *,
        log: SessionLog,
        model: Model,
        provider_factory: ProviderFactory,
        tools: Sequence[AgentTool],
        system_prompt: str,
        cwd: Path,
        thinking_level: ThinkingLevel = "off",
        resources: Resources | None = None,
        tool_settings: ToolSettings | None = None,
        max_turns: int | None = None,
        steering_mode: QueueMode = "one-at-a-time",
        follow_up_mode: QueueMode = "one-at-a-time",
        compaction: CompactionSettings | None = None,
        summary_model: Model | None = None,
        retry: RetrySettings | None = None,
        restore_settings: SettingsRestorer | None = None,
    ) -> None:
        """``restore_settings`` chooses the model and thinking level to continue another
        session with, from what its path records and what is in force (``use_log``)."""
        self.restore_settings = restore_settings
        self.log = log
        self.cwd = cwd
        self.resources = resources
        self._model = model
        self._provider_factory = provider_factory
        self._tool_settings = tool_settings or ToolSettings()
        self._listeners: tuple[SessionListener, ...] = ()
        self._delta_listeners: tuple[SessionListener, ...] = ()  # those that hear message_update too
        self._pending: list[SessionEvent] = []
        self.save_error: str | None = None  # why the session file could not be written, if so
        self.retry = AgentRetry(retry or RetrySettings())
        self._deferred: list[AgentMessage] = []  # user shell commands that ran during a run
        # Which frontend types the prompts, for extensions' input handlers (the mode sets it).
        self.input_source: Literal["interactive", "print", "rpc", "extension"] = "print"
        self.hooks: SessionHooks | None = None  # extensions and shell hooks (set by the composition root)
        self.permissions: PermissionGate | None = None  # session/permission_seam.py installs it
        self.mcp: McpControl | None = None  # the session's MCP servers, when it has any
        # The one /reload (SessionControl.reload), set by the control driving this session.
        self.reloader: Callable[[], object] | None = None
        self._hooks_started = False
        self.checkpoints: SessionCheckpoints | None = None  # one before each prompt (composition root)
        self._checkpoint: PendingCheckpoint | None = None
        state = log.state()
        options = StreamOptions(
            thinking_level=thinking_level,
            session_id=log.header.id,
            on_retry=self._on_retry,
            abort_retry=CancellationToken(),
        )
        self.harness = AgentHarness(
            provider_factory(model),
            system_prompt=system_prompt,
            tools=tools,
            messages=state.messages,
            options=options,
            max_turns=max_turns,
            steering_mode=steering_mode,
            follow_up_mode=follow_up_mode,
            repaired=True,  # a replayed state answers every tool call (SessionState)
            # Calls that may change files wait for the prompt's checkpoint (the permission seam
            # replaces this and waits after its own check).
            before_tool_call=CheckpointWait(self.checkpoint_ready),
        )
        self.request_checkpoints = RequestCheckpoints(log, state, lambda: self.harness.messages)
        self.request_checkpoints.take_up(self.harness.provider)
        self.compactor = SessionCompactor(
            log,
            self.harness,
            settings=compaction or CompactionSettings(),
            current_model=lambda: self._model,
            provider_factory=provider_factory,
            summary_model=summary_model,
        )
        self.compactor.emit = lambda event: self._pending.append(self._announce(event))
        self.compactor.before_compact = self._before_compact
        if log.leaf_id is None:
            self.record_settings()

    def _checkpoint_ref(self) -> str:
        return str(self.session_file or self.session_id)

    # -- state ------------------------------------------------------------------------------

    @property
    def model(self) -> Model:
        return self._model

    @property
    def thinking_level(self) -> ThinkingLevel:
        return self.harness.options.thinking_level

    @property
    def messages(self) -> list[AgentMessage]:
        return self.harness.messages

    @property
    def is_running(self) -> bool:
        return self.harness.is_running or self.compactor.is_compacting

    @property
    def is_compacting(self) -> bool:
        """A compaction (manual or automatic) or a branch summary is being made now."""
        return self.compactor.is_compacting

    @property
    def auto_compaction_enabled(self) -> bool:
        """Whether the session compacts by itself (threshold and overflow); see set_auto_compaction."""
        return self.compactor.settings.enabled

    @property
    def session_id(self) -> str:
        return self.log.header.id

    @property
    def session_file(self) -> Path | None:
        storage = self.log.storage
        return storage.path if isinstance(storage, JsonlSessionStorage) else None

    def write_session_file(self) -> None:
        """Make the session file exist now, before its first reply (a no-op once written, or
        for a session that is not stored); OSError if it cannot be written."""
        storage = self.log.storage
        if isinstance(storage, JsonlSessionStorage):
            storage.write_now()

    def subscribe(self, listener: SessionListener, *, deltas: bool = True) -> Callable[[], None]:
        """Call ``listener`` with every event of every prompt, in order, as it happens.

        With ``deltas=False`` it never hears a ``message_update`` (every other event it does,
        at the same moment): for a frontend that takes those from the run it drives, where a
        batch of them arrives right after the listeners would have heard them one by one."""
        self._listeners = (*self._listeners, listener)
        if deltas:
            self._delta_listeners = (*self._delta_listeners, listener)

        def unsubscribe() -> None:
            self._listeners = tuple(item for item in self._listeners if item is not listener)
            self._delta_listeners = tuple(item for item in self._delta_listeners if item is not listener)

        return unsubscribe

    # -- prompting ----------------------------------------------------------------------------

    def expand(self, text: str) -> str:
        """``/template args`` and ``/skill:name args`` expanded; anything else unchanged."""
        return self.resources.expand_input(text) if self.resources is not None else text

    def prompt(self, text: str, images: Sequence[ImageContent] = ()) -> AsyncGenerator[SessionEvent, None]:
        """Run one prompt; events flow as the returned iterator is consumed, ending with agent_settled."""
        return flat(self.prompt_batches(text, images))

    def prompt_batches(
        self, text: str, images: Sequence[ImageContent] = ()
    ) -> AsyncGenerator[SessionEvent | EventBatch, None]:
        """``prompt`` with a streaming reply's deltas relayed in batches, one per network read
        (event_batch.py): for a frontend that reads events through a subscription, or opens
        each batch itself. Refuses at once, as ``prompt`` does."""
        if self.is_running:
            raise AgentBusyError(
                "Cannot start a new prompt while a run is active; steer or queue a follow-up instead"
            )
        if self.hooks is not None:
            return self._hooked_prompt(self.hooks, text, images)
        message = self._user_message(text, images)
        return self._drive(lambda: self.harness.prompt_batches(message), check_first=True)

    def _user_message(self, text: str, images: Sequence[ImageContent]) -> UserMessage:
        expanded = self.expand(text)
        content: str | list[TextContent | ImageContent] = (
            [TextContent(expanded), *images] if images else expanded
        )
        return UserMessage(content)

    def _hooked_prompt(
        self, hooks: SessionHooks, text: str, images: Sequence[ImageContent]
    ) -> AsyncGenerator[SessionEvent | EventBatch, None]:
        chosen: list[UserMessage] = []

        async def gate() -> InputHandledEvent | None:
            await self.start_hooks()
            decision = await hooks.on_input(text, images)
            if isinstance(decision, InputHandledEvent):
                return decision
            chosen.append(self._user_message(*decision))
            return None

        # One generator, not one wrapping _drive: every streamed delta passes each layer.
        return self._drive(lambda: self.harness.prompt_batches(chosen[0]), check_first=True, gate=gate)

    async def _before_compact(self, trigger: Literal["manual", "auto"], instructions: str) -> None:
        if self.hooks is not None:
            await self.hooks.on_pre_compact(trigger, instructions)

    async def start_hooks(self) -> None:
        """Tell the hooks the session started (once; the first prompt does it if nobody did)."""
        if self.hooks is not None and not self._hooks_started:
            self._hooks_started = True
            await self.hooks.on_start()

    def continue_(self) -> AsyncGenerator[SessionEvent, None]:
        """Run again from the record as it stands (e.g. after a failed reply)."""
        return flat(self.continue_batches())

    def continue_batches(self) -> AsyncGenerator[SessionEvent | EventBatch, None]:
        """``continue_`` with a streaming reply's deltas relayed in batches (as ``prompt_batches``)."""
        run = self.harness.continue_batches()  # refuses at once when there is nothing to continue from
        return self._drive(lambda: run, check_first=False)

    def steer(self, text: str) -> None:
        self.harness.steer(self.expand(text))

    def follow_up(self, text: str) -> None:
        self.harness.follow_up(self.expand(text))

    def cancel(self) -> None:
        """Stop the run, a compaction, and any retry of this prompt (a wait for one included)."""
        self.harness.cancel()
        self.compactor.cancel()
        self.retry.cancel()

    # -- context and compaction (compaction/session_compactor.py does the work) ---------------

    def context_usage(self) -> ContextUsage:
        """Tokens the next request will carry, of the model's window (provider-calibrated)."""
        return self.compactor.usage()

    async def compact(self, custom_instructions: str | None = None) -> CompactionResult:
        """Summarise all but the recent tail now; ``cancel()`` stops it. Refused while running
        (AgentBusyError); raises SummaryError saying why when nothing could be compacted."""
        return await self.compactor.manual(custom_instructions, self._announce)

    async def navigate(
        self,
        entry_id: str | None,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        replace_instructions: bool = False,
    ) -> BranchSummaryEntry | None:
        """Continue from ``entry_id``; with ``summarize`` the path left behind becomes a branch
        summary (``replace_instructions``: ``custom_instructions`` are its whole instruction)."""
        return await self.compactor.navigate(
            entry_id,
            summarize=summarize,
            custom_instructions=custom_instructions,
            replace_instructions=replace_instructions,
        )

    # -- settings that become entries ----------------------------------------------------------

    def set_model(self, model: Model, source: ModelSource = "set") -> None:
        """Switch model for the next request; a model_change entry unless the path has it.
        The hooks hear of it (``source``: "set", or "cycle" from a model cycler)."""
        self._use_model(model, source)
        self.record_settings()

    def set_thinking_level(self, level: ThinkingLevel) -> None:
        """Set the level for the next request; an entry unless the path already has it."""
        previous = self.harness.options.thinking_level
        self.harness.options.thinking_level = level
        self.record_settings()
        if self.hooks is not None and level != previous:
            self.hooks.on_thinking_select(level, previous)

    def _use_model(self, model: Model, source: ModelSource) -> None:
        if model is not self._model:
            previous = self._model
            self.harness.provider = self._provider_factory(model)
            self.request_checkpoints.attach(self.harness.provider)
            self._model = model
            if self.hooks is not None:
                self.hooks.on_model_select(model, previous, source)

    def set_name(self, name: str) -> None:
        self.log.set_name(name)

    def provider_for(self, model: Model) -> ModelProvider:
        """A provider for ``model`` built as the session builds its own (keys, headers, retries),
        for a side request such as a session title."""
        return self._provider_factory(model)

    # -- user shell commands ---------------------------------------------------------------------

    async def run_bash(
        self,
        command: str,
        *,
        exclude_from_context: bool = False,
        signal: CancellationToken | None = None,
        on_update: Callable[[AgentToolResult], None] | None = None,
    ) -> BashExecutionMessage:
        """Run a user's ``!cmd`` (``!!cmd``: keep it out of the model's context) and record its
        output as plain text (escape sequences, control characters and CRs removed, as in Pi).

        During a run the command runs at once and its message joins the record when the run
        settles (the transcript belongs to the run until then). Hooks may run another command
        instead, or answer it without running anything (``on_user_bash``)."""
        outcome = await self.hooks.on_user_bash(command, exclude_from_context) if self.hooks else None
        if outcome is not None and outcome.output is not None:
            message = BashExecutionMessage(
                command=command,
                output=outcome.output,
                exit_code=outcome.exit_code,
                exclude_from_context=exclude_from_context,
            )
            return self._record_bash(message)
        signal = signal or CancellationToken()
        run = await run_command(
            outcome.command if outcome is not None and outcome.command is not None else command,
            self.cwd,
            self._tool_settings,
            self._tool_settings.bash_timeout,
            signal,
            on_update or (lambda _: None),
        )
        cancelled = run.stopped == "aborted" or (not run.started and signal.cancelled)
        # Pi's shape: the output as written but plain (no escape sequences, no CR), no exit code
        # once cancelled. Only the user's commands: the model's bash tool keeps them, as in Pi.
        message = BashExecutionMessage(
            command=command,
            output=safe_text(run.raw) if run.started else run.output,
            exit_code=None if cancelled else run.exit_code,
            cancelled=cancelled,
            truncated=run.details.get("truncation") is not None,
            full_output_path=run.details.get("fullOutputPath"),
            exclude_from_context=exclude_from_context,
        )
        return self._record_bash(message)

    def _record_bash(self, message: BashExecutionMessage) -> BashExecutionMessage:
        if self.is_running:  # the record belongs to the run: this joins it once the run settles
            self._deferred.append(message)
        else:
            self._record_user_message(message)
        return message

    def close(self) -> None:
        if self.hooks is not None:
            self.hooks.on_close()
        self.log.close()
        self.request_checkpoints.leave(self.harness.provider, self.harness.messages)

    # -- switching the session file (new, switch, fork, navigate) -------------------------------

    def set_auto_compaction(self, enabled: bool) -> None:
        """Turn automatic compaction (threshold and overflow) on or off for this session."""
        self.compactor.settings = dataclasses.replace(self.compactor.settings, enabled=enabled)
        if enabled and self.harness.transform_context is None:
            self.harness.transform_context = self.compactor.transform

    def abort_retry(self) -> None:
        """Stop a wait to retry (the provider's or the session's): the failure being retried is
        reported instead, and the run ends as usual."""
        token = self.harness.options.abort_retry
        if token is not None:
            token.cancel("retry aborted")
        self.harness.options.abort_retry = CancellationToken()
        self.retry.abort_wait()

    @property
    def auto_retry_enabled(self) -> bool:
        return self.retry.settings.enabled

    def set_auto_retry(self, enabled: bool) -> None:
        """Whether a reply that failed for a transient reason is tried again (``retry.enabled``)."""
        self.retry.settings = dataclasses.replace(self.retry.settings, enabled=enabled)

    def use_log(
        self, log: SessionLog, settings: SessionSettings | None = None, *, restore: bool = False
    ) -> None:
        """Continue in ``log`` (a new, forked or other session, or the same one reloaded): the
        transcript becomes its path, and the model and thinking level become ``settings``;
        with ``restore``, those ``log`` records (``restore_settings``, see session_settings.py);
        else the current ones carry over. They are recorded at once in a session with no
        entries yet, else before the next prompt if the path records others. The caller
        closes the previous log. Not while a prompt runs (AgentBusyError)."""
        state = log.state()
        if restore and settings is None and self.restore_settings is not None:
            current = SessionSettings(self._model, self.thinking_level)
            settings = self.restore_settings(log.settings(), current)
        if settings is not None:
            self._use_model(settings.model, "restore")
            self.harness.options.thinking_level = settings.thinking_level
        self.log = log
        self.compactor.log = log
        self.compactor.reload(state.messages)
        self.request_checkpoints.settle()
        self.request_checkpoints = RequestCheckpoints(log, state, lambda: self.harness.messages)
        self.request_checkpoints.take_up(self.harness.provider)
        self.harness.options.session_id = log.header.id
        if log.leaf_id is None:
            self.record_settings()

"""Tau as a library: create a coding session in your own process and drive it.

    from tau_coding.sdk import create_session

    async def main() -> None:
        with create_session("/path/to/project", model="anthropic/claude-sonnet-4-5") as tau:
            tau.subscribe(lambda event: print(event.type))
            reply = await tau.prompt("What does main.py do?")
            print(reply.text if reply else "(no reply)")
            print(tau.stats()["tokens"])

The session is the one ``tau`` itself runs (same settings, models.json, credentials, tools,
AGENTS.md, skills, prompt templates, session files), built by ``tau_coding.app.wiring``; this
module only gathers the options and offers one object with the operations an embedder needs.
Nothing here prints; configuration problems raise ``ConfigurationError`` with one line for
the user, and file warnings go to ``warn`` (ignored by default).

What a caller may rely on:

* ``prompt`` returns when the run has settled (the final assistant message, or None);
  ``stream`` yields the same events as they happen. One run at a time: ``steer`` and
  ``follow_up`` queue messages into the run going on, ``abort`` stops it.
* Every listener given to ``subscribe`` hears every event of every run, in order, after the
  message it concerns has been written to the session file.
* Operations that replace the conversation (``new_session``, ``switch_session``, ``fork``,
  ``navigate``, ``reload``) raise ``AgentBusyError`` while a run goes on. All but ``reload``
  are awaited: the extensions' ``session_before_*`` handlers, async ones too, may refuse
  (``ChangeRefusedError``).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from datetime import date
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

from tau_agent.content import ImageContent
from tau_agent.events import MessageEndEvent
from tau_agent.messages import AgentMessage, AssistantMessage
from tau_agent.provider import ThinkingLevel
from tau_agent.tools import AgentTool
from tau_ai.model import Model
from tau_coding.app.session_setup import ProviderMaker, open_controlled_session
from tau_coding.app.wiring import ConfigurationError, Options
from tau_coding.checkpoints.changes import FileChange
from tau_coding.permissions.approver import Approver
from tau_coding.session.checkpointing import RewindPoint
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import ForkMessage, SessionControl
from tau_coding.session.events import SessionEvent
from tau_coding.session.rewind import RewindOutcome
from tau_coding.session.store.listing import SessionInfo
from tau_coding.tools.builtin import ALL_TOOLS

SessionChoice = Literal["new", "memory", "continue"]
Listener = Callable[[SessionEvent], None]


def create_session(
    cwd: str | Path = ".",
    *,
    model: str | None = None,
    provider: str | None = None,
    thinking: ThinkingLevel | None = None,
    tools: Sequence[str] | None = None,
    custom_tools: Sequence[AgentTool] = (),
    system_prompt: str | None = None,
    append_system_prompt: Sequence[str] = (),
    skills: bool = True,
    prompt_templates: bool = True,
    session: SessionChoice | str | Path = "new",
    session_dir: str | Path | None = None,
    api_key: str | None = None,
    max_turns: int | None = None,
    environ: Mapping[str, str] | None = None,
    provider_factory: ProviderMaker | None = None,
    warn: Callable[[str], object] = lambda message: None,
    permission_mode: str | None = None,
    approver: Approver | None = None,
    checkpoints: bool = True,
) -> TauSession:
    """Open a coding session in ``cwd``.

    ``model`` is anything ``tau --model`` accepts (``provider/id[:thinking]``, an id, fuzzy
    text); ``tools`` names built-in tools (None: the defaults, ``[]``: none) and
    ``custom_tools`` adds your own, which the system prompt then lists. ``system_prompt``
    (text or a file path) replaces the base prompt; ``append_system_prompt`` adds to it;
    ``skills``/``prompt_templates`` False load none. ``session``: "new" (a file written with
    the first reply), "memory" (nothing on disk), "continue" (the most recent of ``cwd``), or a
    session file path or id prefix. ``environ`` replaces ``os.environ`` (API keys, TAU_HOME,
    HOME); ``provider_factory(model, api_key)`` replaces the HTTP providers (tests, proxies).
    ``permission_mode`` (else ``permissions.defaultMode``, else ``workspace``) and ``approver``,
    who answers where the engine asks (None: such calls are denied), as in docs/permissions.md;
    ``custom_tools`` are your own code, so they run unasked. ``checkpoints`` False takes no
    checkpoints of the files (``--no-checkpoints``).
    """
    folder = Path(cwd).expanduser().resolve()
    named = session not in ("new", "memory", "continue")
    options = Options(
        provider=provider,
        model=model,
        thinking=thinking,
        api_key=api_key,
        continue_session=session == "continue",
        session=str(session) if named else None,
        session_dir=str(session_dir) if session_dir is not None else None,
        no_session=session == "memory",
        tools=",".join(tools) if tools is not None else None,
        no_tools=tools is not None and not tools,
        system_prompt=system_prompt,
        append_system_prompt=tuple(append_system_prompt),
        no_skills=not skills,
        no_prompt_templates=not prompt_templates,
        max_turns=max_turns,
        permission_mode=permission_mode,
        no_checkpoints=not checkpoints,
    )
    extra = list(custom_tools)
    clash = {t.name for t in extra} & set(ALL_TOOLS)
    if clash:
        raise ConfigurationError(f"custom tool {sorted(clash)[0]!r} has the name of a built-in tool")

    def add_custom_tools(built: CodingSession) -> None:
        if built.permissions is not None:
            built.permissions.approver = approver
            built.permissions.remember([tool.name for tool in extra])
        if not extra:
            return
        built.harness.tools.extend(extra)
        if built.resources is not None:
            built.harness.system_prompt = built.resources.system_prompt(built.harness.tools, date.today())

    control = open_controlled_session(
        options,
        os.environ if environ is None else environ,
        folder,
        warn=warn,
        provider_factory=provider_factory,
        adjust=add_custom_tools,
    )
    return TauSession(control)


class TauSession:
    """One coding session, driven in-process. Close it (or use ``with``) when done."""

    def __init__(self, control: SessionControl) -> None:
        self.control = control
        self._listeners: list[Listener] = []
        self._attached: CodingSession | None = None
        self._detach: Callable[[], None] = lambda: None
        self._attach()
        self.control.reloaded.append(lambda fresh: self._attach())  # ``/reload`` as a prompt too

    def __enter__(self) -> TauSession:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- what it is ----------------------------------------------------------------------------------

    @property
    def session(self) -> CodingSession:
        """The CodingSession underneath (replaced by ``reload``)."""
        return self.control.session

    @property
    def model(self) -> Model:
        return self.session.model

    @property
    def thinking_level(self) -> ThinkingLevel:
        return self.session.thinking_level

    @property
    def messages(self) -> list[AgentMessage]:
        """The conversation as the model sees it. Read-only."""
        return self.session.messages

    @property
    def session_file(self) -> Path | None:
        return self.session.session_file

    @property
    def session_id(self) -> str:
        return self.session.session_id

    @property
    def is_running(self) -> bool:
        return self.session.is_running

    # -- events ---------------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Hear every event of every run; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _attach(self) -> None:
        if self._attached is self.session:
            return
        self._detach()
        self._attached = self.session
        self._detach = self.session.subscribe(self._forward)

    def _forward(self, event: SessionEvent) -> None:
        for listener in list(self._listeners):
            listener(event)

    # -- prompting --------------------------------------------------------------------------------------

    def stream(self, text: str, images: Sequence[ImageContent] = ()) -> AsyncIterator[SessionEvent]:
        """Run a prompt; its events as they happen (``/template`` and ``/skill:`` expanded)."""
        return self.session.prompt(text, images)

    async def prompt(self, text: str, images: Sequence[ImageContent] = ()) -> AssistantMessage | None:
        """Run a prompt to the end; the last assistant message (None if there was none)."""
        last: AssistantMessage | None = None
        async for event in self.session.prompt(text, images):
            if isinstance(event, MessageEndEvent) and isinstance(event.message, AssistantMessage):
                last = event.message
        return last

    def steer(self, text: str) -> None:
        """Deliver ``text`` after the running tool call; the reply's remaining calls are skipped."""
        self.session.steer(text)

    def follow_up(self, text: str) -> None:
        """Deliver ``text`` when the running prompt would otherwise end."""
        self.session.follow_up(text)

    def abort(self) -> None:
        """Stop the running prompt; its ``prompt``/``stream`` ends with an aborted reply."""
        self.session.cancel()

    async def run_bash(self, command: str, *, exclude_from_context: bool = False) -> dict[str, Any]:
        """Run a user shell command; its output reaches the model with the next prompt."""
        message = await self.session.run_bash(command, exclude_from_context=exclude_from_context)
        return {
            "output": message.output,
            "exitCode": message.exit_code,
            "cancelled": message.cancelled,
            "truncated": message.truncated,
        }

    # -- the session ---------------------------------------------------------------------------------------

    async def new_session(self, parent_session: str | None = None) -> None:
        """Continue in a fresh session. Like ``switch_session``, ``fork`` and ``navigate``, it
        awaits the extensions' ``session_before_*`` handlers (plain or async) first; a refusal
        raises ``ChangeRefusedError`` and nothing changes."""
        await self.control.asking(lambda: self.control.new_session(parent_session))

    async def switch_session(self, ref: str | Path) -> None:
        """Continue in another session (a file path or an id prefix)."""
        await self.control.asking(lambda: self.control.switch_session(ref))

    def fork_messages(self) -> list[ForkMessage]:
        return self.control.fork_messages()

    async def fork(self, entry_id: str) -> str:
        """A new session from before user message ``entry_id``; returns that message's text
        ("" when an extension's ``ForkDecision`` asked not to hand it back)."""
        return await self.control.asking(lambda: self.control.fork(entry_id))

    async def navigate(
        self,
        entry_id: str | None,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        label: str | None = None,
    ) -> None:
        """Move to another point of the session's tree; the next prompt continues from there.
        ``summarize`` records a summary of the branch left behind first (the model's, or an
        extension's ``TreeDecision``); ``label`` labels that summary, else the entry."""
        if summarize:
            await self.control.summarize_move(entry_id, custom_instructions=custom_instructions, label=label)
            return
        await self.control.asking(lambda: self.control.navigate(entry_id))
        if label and entry_id is not None:
            self.control.set_label(entry_id, label)

    def set_label(self, entry_id: str, label: str | None) -> None:
        self.control.set_label(entry_id, label)

    def set_name(self, name: str) -> None:
        self.session.set_name(name)

    def list_sessions(self, *, everywhere: bool = False) -> list[SessionInfo]:
        return self.control.list_sessions(everywhere=everywhere)

    def available_models(self) -> list[Model]:
        return self.control.available_models()

    def set_model(self, provider: str, model_id: str) -> Model:
        return self.control.set_model(provider, model_id)

    def cycle_model(self) -> Model | None:
        return self.control.cycle_model()

    def set_thinking_level(self, level: ThinkingLevel) -> None:
        self.control.set_thinking_level(level)

    def cycle_thinking_level(self) -> ThinkingLevel | None:
        return self.control.cycle_thinking_level()

    def stats(self) -> dict[str, Any]:
        """Messages, tool calls, tokens and cost of the whole session (Pi's session stats)."""
        return self.control.stats()

    def last_assistant_text(self) -> str | None:
        return self.control.last_assistant_text()

    def export_html(self, out: str | Path | None = None) -> Path:
        return self.control.export_html(out)

    async def compact(self, custom_instructions: str | None = None) -> Any:
        """Summarise older messages (ControlError if this build has no compaction)."""
        return await self.control.compact(custom_instructions)

    def list_checkpoints(self) -> list[RewindPoint]:
        """Checkpoints a rewind may go back to, oldest first, each with the files changed since."""
        return self.control.list_checkpoints()

    def preview_checkpoint(self, checkpoint_id: str) -> tuple[FileChange, ...]:
        """What ``restore_checkpoint(id, "code")`` would change in the files now."""
        return self.control.preview_checkpoint(checkpoint_id)

    async def restore_checkpoint(self, checkpoint_id: str, restore: str = "both") -> RewindOutcome:
        """Rewind to a checkpoint: ``code``, ``conversation``, ``both`` or ``summarize``
        (docs/checkpoints.md); a code restore first keeps the files as a "before rewind" one."""
        return await self.control.restore_checkpoint(checkpoint_id, restore)

    def reload(self) -> None:
        """Re-read settings, models, resources and tools; the conversation continues."""
        self.control.reload()
        self._attach()

    def close(self) -> None:
        self._detach()
        self.session.close()


__all__ = ["ConfigurationError", "TauSession", "create_session"]

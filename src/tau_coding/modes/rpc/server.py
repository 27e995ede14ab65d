"""RpcServer: reads commands, answers each one, and streams the session's events.

Commands are handled one at a time in the order they arrive; a command whose work takes a
while (a prompt's run, a user's bash command, a compaction) answers when it is accepted or
done and lets the next command in meanwhile, so ``steer``, ``abort`` and ``get_state`` work
mid-run. Events go out as they happen, without ids. No line of input can stop the server:
an unreadable line gets a ``parse`` error, a bad command an error response, and a failure
inside a handler becomes that command's error. When the input ends the run in progress is
aborted and awaited (every message it finished is already on disk), dialogs resolve to their
defaults, and the session file is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.content import ImageContent, TextContent, text_of
from tau_agent.event_batch import EventBatch
from tau_agent.events import AgentEndEvent, AgentStartEvent
from tau_agent.messages import AgentMessage, UserMessage
from tau_coding.modes.event_lines import batch_lines, event_line
from tau_coding.modes.rpc.fields import Fields
from tau_coding.modes.rpc.framing import BadLine, decode_line, read_lines
from tau_coding.modes.rpc.output import RpcOutput
from tau_coding.modes.rpc.responses import NO_DATA, CommandError, failure, success
from tau_coding.modes.rpc.shapes import session_changed_event
from tau_coding.modes.rpc.ui_bridge import RpcExtensionUI
from tau_coding.session.control import OutsideChange, SessionControl
from tau_coding.session.events import SessionEvent

Handler = Callable[["RpcServer", Fields, Any], Awaitable[Any]]
DEFERRED: Any = object()  # the handler answers later (from a task it started)


class RpcServer:
    def __init__(self, control: SessionControl, output: RpcOutput, handlers: dict[str, Handler]) -> None:
        self.control = control
        self.out = output
        self.ui = RpcExtensionUI(output)
        self._handlers = handlers
        self._run: asyncio.Task[None] | None = None
        self._ended = False  # the run's agent has ended (agent_end sent): only its settling is left
        self._bash: CancellationToken | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._aborting = False
        self._again = False  # an extension asked for a run from the record (trigger_turn)
        self._shutdown_asked = False  # an extension called shutdown(): stop once idle
        self._stop = asyncio.Event()
        self._answering = False  # a command is being answered (a shutdown asked in it waits)
        self.on_shutdown: list[Callable[[], object]] = []  # e.g. cancel a login waiting for a browser
        control.outside_change.append(self._session_changed)

    def _session_changed(self, change: OutsideChange) -> None:
        """An extension moved the session (``tau.sessions``): clients hear it at once, as they
        would not otherwise (the command that caused it answers about itself only)."""
        self.out.send(session_changed_event(self.control.session, change))

    # -- state the handlers read ---------------------------------------------------------------------

    @property
    def is_streaming(self) -> bool:
        return self._run is not None and not self._run.done()

    @property
    def bash_running(self) -> bool:
        return self._bash is not None

    async def settle(self) -> None:
        """Wait out a run whose agent has ended. After agent_end only the run's bookkeeping is
        left (the prompt's checkpoint entry, which waits for its snapshot), and a client that
        saw agent_end may send its next prompt or compact at once, as it may to Pi."""
        run = self._run
        if run is not None and not run.done() and self._ended:
            await asyncio.wait([run])

    # -- the loop --------------------------------------------------------------------------------------

    async def serve(self, reader: asyncio.StreamReader) -> None:
        """Answer commands until ``reader`` ends, then shut down cleanly.

        Commands are answered one at a time, in order; an ``extension_ui_response`` is taken
        as soon as it is read, so a command waiting on an extension's dialog (``new_session``
        asking a ``session_before_switch`` handler that asks the user) gets its answer."""
        commands: asyncio.Queue[bytes | BadLine | None] = asyncio.Queue()
        worker = asyncio.ensure_future(self._answer(commands))
        reading = asyncio.ensure_future(self._read(reader, commands))
        try:
            stopping = asyncio.ensure_future(self._stop.wait())
            await asyncio.wait([reading, stopping], return_when=asyncio.FIRST_COMPLETED)
            reading.cancel()
            stopping.cancel()
            self.ui.cancel_all()  # nobody is left to answer: the commands waiting go on
            commands.put_nowait(None)
            await worker
        finally:
            worker.cancel()
            await self.shutdown()

    async def _read(
        self, reader: asyncio.StreamReader, commands: asyncio.Queue[bytes | BadLine | None]
    ) -> None:
        async for line in read_lines(reader):
            if not self._answers_dialog(line):
                commands.put_nowait(line)

    async def _answer(self, commands: asyncio.Queue[bytes | BadLine | None]) -> None:
        while (line := await commands.get()) is not None:
            self._answering = True
            try:
                await self.handle_line(line)
            finally:
                self._answering = False
            self._stop_if_asked()

    def request_shutdown(self) -> None:
        """An extension's ``shutdown()``: stop reading commands once idle (the command going on
        has answered, the run has ended), then shut down as at the end of the input."""
        self._shutdown_asked = True
        self._stop_if_asked()

    def _stop_if_asked(self) -> None:
        if self._shutdown_asked and not self.is_streaming and not self._answering:
            self._stop.set()

    def _answers_dialog(self, line: bytes | BadLine) -> bool:
        if not isinstance(line, bytes) or b"extension_ui_response" not in line:
            return False
        command = decode_line(line)
        if isinstance(command, dict) and command.get("type") == "extension_ui_response":
            self.ui.resolve(command)  # a late or unknown id is ignored, as the dialog is gone
            return True
        return False

    async def handle_line(self, line: bytes | BadLine) -> None:
        if isinstance(line, bytes) and not line.strip():
            return  # blank lines (keep-alives, a stray CRLF) are not commands
        command = decode_line(line) if isinstance(line, bytes) else line
        if isinstance(command, BadLine):
            self.out.send(failure("parse", None, command.error))
            return
        await self.dispatch(command)

    async def dispatch(self, command: dict[str, Any]) -> None:
        request_id = command.get("id")
        kind = command.get("type")
        if not isinstance(kind, str):
            self.out.send(
                failure("parse", request_id, "Failed to parse command: missing string field 'type'")
            )
            return
        if kind == "extension_ui_response":
            self.ui.resolve(command)  # a late or unknown id is ignored, as the dialog is gone
            return
        handler = self._handlers.get(kind)
        if handler is None:
            self.out.send(failure(kind, request_id, f"Unknown command: {kind}"))
            return
        try:
            data = await handler(self, Fields(command), request_id)
        except Exception as exc:  # whatever went wrong, it is this command's error, not the server's end
            self.out.send(failure(kind, request_id, _one_line(exc)))
            return
        if data is not DEFERRED:
            self.out.send(success(kind, request_id, data))

    # -- runs --------------------------------------------------------------------------------------------

    def start_run(
        self, command: str, request_id: Any, events: Callable[[], AsyncIterator[SessionEvent | EventBatch]]
    ) -> None:
        """Stream ``events()`` (batches opened in place) in a task; queued steering or follow-ups left over run after it."""
        if self.is_streaming:
            raise CommandError(
                "Agent is already processing; send streamingBehavior 'steer' or 'followUp' to queue the message"
            )
        if self.bash_running:
            raise CommandError("A bash command is running; wait for it or send abort_bash")
        self._aborting = False
        self._ended = False
        self._watch_queues()
        self._run = self.spawn(self._drive(command, request_id, events))
        self._run.add_done_callback(lambda _: self._stop_if_asked())

    async def _drive(
        self, command: str, request_id: Any, events: Callable[[], AsyncIterator[SessionEvent | EventBatch]]
    ) -> None:
        session = self.control.session
        try:
            await self._pump(events())
            while (session.harness.pending_count or self._again) and not self._aborting:
                self._again = False
                await self._pump(session.continue_batches())
        except Exception as exc:  # a second response for the same command, as Pi sends
            self.out.send(failure(command, request_id, _one_line(exc)))

    def run_from_record(self) -> None:
        """An extension's ``trigger_turn``: the agent runs from the record as it stands, now,
        or right after the run going on (a command's handler runs inside its prompt's run)."""
        if self.is_streaming:
            self._again = True
        elif not self.bash_running:
            self.start_run("extension", None, self.control.session.continue_batches)

    async def _pump(self, events: AsyncIterator[SessionEvent | EventBatch]) -> None:
        write, line = self.out.write_line, event_line
        async for event in events:
            if isinstance(event, EventBatch):  # a reply's deltas, one network read of them, in one go
                write(batch_lines(event.events))
                continue
            write(line(event))
            kind = type(event)
            if kind is AgentEndEvent or kind is AgentStartEvent:
                self._ended = kind is AgentEndEvent

    def queue(self, kind: str, text: str, images: list[ImageContent]) -> None:
        """Queue a steering or follow-up message (templates and skills expanded)."""
        harness = self.control.session.harness
        expanded = self.control.session.expand(text)
        message = UserMessage([TextContent(expanded), *images] if images else expanded)
        self._watch_queues()
        (harness.steer if kind == "steer" else harness.follow_up)(message)

    def _watch_queues(self) -> None:
        """Pi's ``queue_update`` whenever the session's queues change (the session may have been
        replaced since the last run, so this is set again before each)."""
        self.control.session.harness.on_queue_change = self._send_queues

    def _send_queues(self, steering: Sequence[AgentMessage], follow_up: Sequence[AgentMessage]) -> None:
        self.out.send(
            {
                "type": "queue_update",
                "steering": [_queued_text(m) for m in steering],
                "followUp": [_queued_text(m) for m in follow_up],
            }
        )

    async def abort(self) -> None:
        """Stop the run (queued messages are dropped) and wait until it has ended."""
        run = self._run
        if run is None or run.done():
            return
        self._aborting = True
        self.control.session.harness.clear_queues()
        self.control.session.cancel()
        await asyncio.shield(run)

    # -- bash ----------------------------------------------------------------------------------------------

    def start_bash(self, request_id: Any, command: str) -> None:
        if self.bash_running:  # during a run it runs now and joins the record when the run settles
            raise CommandError("Cannot run bash while another bash command is running")
        token = self._bash = CancellationToken()
        self.spawn(self._run_bash(request_id, command, token))

    async def _run_bash(self, request_id: Any, command: str, token: CancellationToken) -> None:
        if token.cancelled:  # abort_bash came before the command started: nothing ran, nothing recorded
            self._bash = None
            cancelled = {"output": "", "cancelled": True, "truncated": False}
            self.out.send(success("bash", request_id, cancelled))
            return
        try:
            message = await self.control.session.run_bash(command, signal=token)
        except Exception as exc:
            self.out.send(failure("bash", request_id, _one_line(exc)))
            return
        finally:
            self._bash = None
        data: dict[str, Any] = {"output": message.output}
        if message.exit_code is not None:  # Pi leaves it out when the command was cancelled
            data["exitCode"] = message.exit_code
        data |= {"cancelled": message.cancelled, "truncated": message.truncated}
        if message.full_output_path:
            data["fullOutputPath"] = message.full_output_path
        self.out.send(success("bash", request_id, data))

    def abort_bash(self) -> None:
        if self._bash is not None:
            self._bash.cancel("aborted by the client")

    # -- tasks and shutdown ----------------------------------------------------------------------------

    def spawn(self, work: Awaitable[None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def shutdown(self) -> None:
        for hook in self.on_shutdown:
            hook()
        self.ui.cancel_all()
        self.abort_bash()
        with contextlib.suppress(Exception):
            await self.abort()
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        self.control.session.close()
        self.out.flush()


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0] if "\n" in text else text


__all__ = ["DEFERRED", "NO_DATA", "Handler", "RpcServer"]


def _queued_text(message: AgentMessage) -> str:
    return text_of(message.content) if isinstance(message, UserMessage) else ""

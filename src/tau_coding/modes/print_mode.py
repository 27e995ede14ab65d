"""Print mode: the prompts, then the final answer (text) or every event (JSON lines).

A frontend is a fold over events: ``render`` each one, then ``finish`` says whether the run
went well, which becomes the exit code. Text mode writes nothing to stdout but the answer;
JSON mode writes the session header, then one line per event, each linear in its own size
(a ``message_update`` carries its delta, never the partial message again).

Both hear events through the session's subscription, except ``message_update``: the JSON
renderer takes those from the run it drives, a network read's worth (a batch) at a time, and
the text renderer has no use for them. A batch arrives right after the listeners heard its
other events, so the lines keep the order of the events.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TextIO

from tau_agent.content import ImageContent
from tau_agent.event_batch import EventBatch
from tau_agent.events import MessageEndEvent, MessageUpdateEvent
from tau_agent.messages import AssistantMessage
from tau_agent.session.codec import header_to_dict
from tau_coding.common.collector import settled_heap
from tau_coding.common.reply_notice import reply_notice
from tau_coding.modes.event_lines import event_line, update_lines, value_line
from tau_coding.modes.line_output import LineOutput
from tau_coding.session.coding_session import CodingSession
from tau_coding.session.control import SessionControl
from tau_coding.session.events import (
    AutoRetryStartEvent,
    CompactionEndEvent,
    CompactionStartEvent,
    InputHandledEvent,
    SessionEvent,
)


class FinalTextRenderer:
    """Prints nothing while the run goes on; ``finish`` prints the last answer or the error."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self._out, self._err = out, err
        self._last: AssistantMessage | None = None
        self._handled: InputHandledEvent | None = None  # a command or extension answered instead

    def render(self, event: SessionEvent) -> None:
        if isinstance(event, MessageEndEvent) and isinstance(event.message, AssistantMessage):
            self._last = event.message
        elif isinstance(event, InputHandledEvent):
            self._handled = event
        elif isinstance(event, AutoRetryStartEvent):
            seconds = event.delay_ms / 1000
            self._err.write(
                f"tau: {event.error_message}; retrying in {seconds:.1f}s ({event.attempt}/{event.max_attempts})\n"
            )
        elif isinstance(event, CompactionStartEvent) and event.reason == "overflow":
            self._err.write("tau: the context window overflowed; compacting and retrying\n")
        elif isinstance(event, CompactionEndEvent) and event.error_message:
            self._err.write(f"tau: compaction failed: {event.error_message}\n")

    def finish(self) -> bool:
        last = self._last
        if last is None and self._handled is not None:
            text = self._handled.text or ""
            self._out.write(text if not text or text.endswith("\n") else text + "\n")
            self._out.flush()
            return True
        if last is None:
            self._err.write("Error: the run produced no reply\n")
            return False
        if last.stop_reason in ("error", "aborted"):
            self._err.write(f"Error: {last.error_message or last.stop_reason}\n")
            return False
        notice = reply_notice(last)
        if notice is not None:
            self._err.write(f"tau: {notice.what[0].lower()}{notice.what[1:]}\n")
        text = last.text
        self._out.write(text if text.endswith("\n") else text + "\n")
        self._out.flush()
        return True


class JsonLinesRenderer:
    """Every event as one JSON line; fails when the final reply failed.

    Lines go to ``out``'s byte stream once per turn of the event loop (``LineOutput``): the
    deltas of one network read leave in one write, and a reader of the pipe sees each batch
    as soon as it is made, whether or not Python buffers stdout.
    """

    def __init__(self, out: TextIO) -> None:
        out.flush()  # anything printed before goes first
        self._output = LineOutput(out.buffer)
        self._ok = True

    def header(self, session: CodingSession) -> None:
        self._output.write_line(value_line(header_to_dict(session.log.header)))

    def render(self, event: SessionEvent) -> None:
        """An event heard through the subscription (never a ``message_update``: see ``relay``)."""
        self._output.write_line(event_line(event))
        if type(event) is MessageEndEvent and isinstance(event.message, AssistantMessage):
            self._ok = event.message.stop_reason not in ("error", "aborted")

    def relay(self, item: SessionEvent | EventBatch) -> None:
        """An item of the run: its ``message_update`` lines, a batch's in one write."""
        if type(item) is EventBatch:
            self._output.write_line(update_lines(item.events))
        elif type(item) is MessageUpdateEvent:
            self._output.write_line(event_line(item))

    def finish(self) -> bool:
        self._output.flush()
        return self._ok


async def run_print(
    session: CodingSession,
    prompts: Sequence[tuple[str, list[ImageContent]]],
    *,
    json_output: bool,
    out: TextIO,
    err: TextIO,
    control: SessionControl | None = None,
) -> bool:
    """Run each prompt in order to its settled end; returns whether the last reply went well.

    With ``control``, a run an extension asks for (``trigger_turn``) follows the prompt
    during which it asked.

    Several prompts are sent one after the other as Pi does (``tau -p "read x" "now y"``);
    text mode prints only the final answer. Rendering follows the session's subscription (and
    the run's batches for JSON deltas), so retry notices appear when they happen rather than
    when the next event of the reply arrives.
    """
    renderer: FinalTextRenderer | JsonLinesRenderer
    relay: Callable[[SessionEvent | EventBatch], None] | None = None
    if json_output:
        renderer = JsonLinesRenderer(out)
        renderer.header(session)
        relay = renderer.relay
    else:
        renderer = FinalTextRenderer(out, err)
    unsubscribe = session.subscribe(renderer.render, deltas=False)
    asked: list[bool] = []
    if control is not None:

        def ask() -> bool:  # from a handler's thread too: the prompt's loop picks it up
            asked.append(True)
            return True

        control.run_from_record = ask
    try:
        with settled_heap():
            for prompt, images in prompts:
                await _drain(session.prompt_batches(prompt, images), relay)
                while asked:
                    asked.clear()
                    await _drain(session.continue_batches(), relay)
    except asyncio.CancelledError:
        session.cancel()
        raise
    finally:
        unsubscribe()
    ok = renderer.finish()
    if session.save_error is not None:
        err.write(f"tau: the session was not saved: {session.save_error}\n")
        return False
    return ok


async def _drain(
    items: AsyncIterator[SessionEvent | EventBatch], relay: Callable[[SessionEvent | EventBatch], None] | None
) -> None:
    """Run to the end; ``relay`` sees every item (the other events come by subscription)."""
    if relay is None:
        async for _ in items:
            pass
    else:
        async for item in items:
            relay(item)

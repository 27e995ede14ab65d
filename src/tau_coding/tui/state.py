"""TuiState: the transcript as the screen shows it, folded from AgentEvents.

``apply(state, event, now)`` is an in-place reducer whose work per event is O(1): a streamed
delta only marks the item it touched as changed, since the item holds a reference to the
growing message rather than a copy. Widgets ask ``take_changes`` what to mount or refresh, so
the screen never re-renders what did not change. Nothing here imports Textual.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tau_agent.content import ImageContent, ToolCall, text_of
from tau_agent.event_batch import EventBatch
from tau_agent.events import (
    AgentEndEvent,
    AgentEvent,
    AgentStartEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionUpdateEvent,
)
from tau_agent.messages import (
    AgentMessage,
    AssistantMessage,
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from tau_agent.spent import Spent
from tau_agent.stream_events import ToolCallDeltaEvent, ToolCallEndEvent, ToolCallStartEvent
from tau_coding.common.reply_notice import reply_notice
from tau_coding.tui.items import (
    RETRY_HINT,
    AssistantItem,
    BashItem,
    Changes,
    ErrorItem,
    Item,
    NoticeItem,
    NoticeTone,
    QueuedMessage,
    QueueKind,
    RunNotice,
    RunStatus,
    ToolItem,
    UserItem,
    compacted_line,
)
from tau_coding.tui.terminal_images import image_line, placeholder


@dataclass(slots=True)
class TuiState:
    items: list[Item] = field(default_factory=list)
    queue: list[QueuedMessage] = field(default_factory=list)
    usage: Spent = field(default_factory=Spent)
    status: RunStatus = "idle"
    context_tokens: int | None = None  # from the latest reply's usage; None until one arrives
    retry_at: float | None = None  # when the retry waited for starts (clock time), if one is
    compacting: bool = False  # the session is compacting the context within the run
    run_started: float | None = None  # when the run under way started (clock time), if one is
    turns: int = 0
    tool_calls: int = 0
    _tools: dict[str, int] = field(default_factory=dict)  # call id -> item index
    _open_tools: set[str] = field(default_factory=set)
    _assistant: int | None = None  # index of the reply that is streaming
    _compacted_at: int = 0  # timestamp (ms) of the latest compaction summary shown
    # How an app-defined message is shown (extensions' renderers); None or no text: its content.
    render_custom: Callable[[CustomMessage], str | None] | None = None
    _mounted: int = 0  # items before this index were handed out by take_changes
    _updated: set[int] = field(default_factory=set)
    _queue_changed: bool = False
    _footer_changed: bool = True

    def add(self, item: Item) -> int:
        self.items.append(item)
        return len(self.items) - 1

    def touch(self, index: int) -> None:
        if index < self._mounted:
            self._updated.add(index)

    def take_changes(self) -> Changes:
        changes = Changes(
            range(self._mounted, len(self.items)),
            self._updated,
            self._queue_changed,
            self._footer_changed,
        )
        self._mounted = len(self.items)
        self._updated = set()
        self._queue_changed = self._footer_changed = False
        return changes

    def tool_index(self, call_id: str) -> int | None:
        return self._tools.get(call_id)


def from_messages(
    messages: Iterable[AgentMessage],
    render_custom: Callable[[CustomMessage], str | None] | None = None,
    spent: Spent | None = None,
) -> TuiState:
    """The state of a loaded session: one pass, O(number of messages). Its totals are
    ``spent`` if given (the whole session's: ``StatusPort.spent``), else the messages'."""
    state = TuiState(render_custom=render_custom)
    for message in messages:
        add_message(state, message)
    if spent is not None:
        state.usage = spent
    state._footer_changed = True
    return state


def add_message(state: TuiState, message: AgentMessage) -> None:
    """Append a finished message from the record (history, or ``!cmd`` output)."""
    if isinstance(message, UserMessage):
        state.add(_user_item(message))
    elif isinstance(message, AssistantMessage):
        state.add(AssistantItem(message, done=True))
        for call in message.tool_calls:
            _tool_item(state, call)
        _finish_reply(state, message)
    elif isinstance(message, ToolResultMessage):
        _finish_tool(state, message.tool_call_id, message.is_error, message.content, message.details)
    elif isinstance(message, BashExecutionMessage):
        state.add(
            BashItem(
                message.command,
                message.output,
                message.exit_code,
                message.exclude_from_context,
                message.cancelled,
            )
        )
    elif isinstance(message, CompactionSummaryMessage):
        state.add(NoticeItem(compacted_line(message.tokens_before), "compaction"))
        _context_replaced(state)
        state._compacted_at = message.timestamp
    elif isinstance(message, BranchSummaryMessage):
        state.add(NoticeItem("Returned from another branch: " + message.summary, "branch"))
    elif isinstance(message, CustomMessage) and message.display:
        shown = state.render_custom(message) if state.render_custom is not None else None
        state.add(NoticeItem(shown or text_of(message.content, image="[image]"), "info"))


def _images(content: str | Iterable[object]) -> tuple[ImageContent, ...]:
    return () if isinstance(content, str) else tuple(b for b in content if isinstance(b, ImageContent))


def _user_item(message: UserMessage) -> UserItem:
    text = text_of(message.content, image=placeholder, sep="\n")
    return UserItem(text, _images(message.content))


def _finish_tool(
    state: TuiState,
    call_id: str,
    is_error: bool,
    content: Sequence[object],
    details: Any,
    ended: float | None = None,
) -> None:
    """A tool's result reached its row (from a live run's end event or a loaded session's message)."""
    # (imported here: the session's statistics are not needed for the first screen)
    from tau_agent.session.stats import tool_result_usage

    spent = tool_result_usage(details)  # a subagent's tokens and cost count once, here
    if spent is not None:
        _add_usage(state, spent)
    index = state._tools.get(call_id)
    if index is None:
        return
    item = state.items[index]
    assert isinstance(item, ToolItem)
    item.status = "error" if is_error else "ok"
    if ended is not None:
        item.ended = ended
    item.output = text_of(content, image=image_line)
    item.images = _images(content)
    item.details = details
    state._open_tools.discard(call_id)
    state.touch(index)


def add_notice(state: TuiState, text: str, tone: NoticeTone = "info") -> None:
    state.add(NoticeItem(text, tone))


def add_error(state: TuiState, message: str, hint: str = RETRY_HINT) -> None:
    state.add(ErrorItem(message, hint))


def queue_message(state: TuiState, kind: QueueKind, text: str) -> None:
    state.queue.append(QueuedMessage(kind, text))
    state._queue_changed = True


def take_queue(state: TuiState) -> list[QueuedMessage]:
    """Empty the visible queue (the caller takes the session's queues back too)."""
    taken, state.queue = state.queue, []
    state._queue_changed = True
    return taken


def set_status(state: TuiState, status: RunStatus) -> None:
    state.status = status
    if status == "idle":
        state.retry_at, state.compacting, state.run_started = None, False, None
    state._footer_changed = True


def apply(state: TuiState, event: AgentEvent | RunNotice | EventBatch, now: float) -> None:
    """Fold one event into ``state`` in O(1) (amortised; a finished reply walks its own blocks
    once); a batch's events one by one, in order, as if each had come alone."""
    if type(event) is EventBatch:
        for each in event.events:
            if type(each) is MessageUpdateEvent:  # nearly every event of a batch
                _on_update(state, each, now)
            else:
                apply(state, each, now)
    elif isinstance(event, RunNotice):
        failed = state.items[-1] if state.items else None
        text = event.text
        if event.recovers and isinstance(failed, ErrorItem):
            # Dealt with: no "send a message to retry"; what is done goes under the error.
            failed.hint = event.under_failure
            text = "" if event.under_failure else text
            state.touch(len(state.items) - 1)
        if text:
            add_notice(state, text, event.tone)
        if event.retry_in is not None or event.retry_over:
            state.retry_at = now + event.retry_in if event.retry_in is not None else None
            state._footer_changed = True
        if event.compacting is not None:
            state.compacting = event.compacting
            if not event.compacting and event.tone == "compaction":  # compacted
                _context_replaced(state)
            if event.compacting:  # between the loop's runs: the session is still at work
                set_status(state, "running")
            state._footer_changed = True
    elif isinstance(event, MessageUpdateEvent):
        _on_update(state, event, now)
    elif isinstance(event, ToolExecutionUpdateEvent):
        index = state._tools.get(event.tool_call_id)
        if index is not None:
            item = state.items[index]
            assert isinstance(item, ToolItem)
            item.output = text_of(event.partial_result.content)
            item.details = event.partial_result.details
            state.touch(index)
    elif isinstance(event, MessageStartEvent):
        _on_message_start(state, event.message)
    elif isinstance(event, MessageEndEvent):
        _on_message_end(state, event.message)
    elif isinstance(event, ToolExecutionStartEvent):
        index = state._tools.get(event.tool_call_id)
        if index is None:
            index = _tool_item(state, ToolCall(event.tool_call_id, event.tool_name, event.args))
        item = state.items[index]
        assert isinstance(item, ToolItem)
        item.status, item.started, item.args = "running", now, event.args
        state.touch(index)
    elif isinstance(event, ToolExecutionEndEvent):
        _finish_tool(
            state, event.tool_call_id, event.is_error, event.result.content, event.result.details, now
        )
    elif isinstance(event, AgentStartEvent):
        set_status(state, "running")
        if state.run_started is None:  # (a run the session goes on with keeps its start)
            state.run_started = now
    elif isinstance(event, AgentEndEvent):
        _on_agent_end(state, now)


def _on_update(state: TuiState, event: MessageUpdateEvent, now: float) -> None:
    inner = event.assistant_message_event
    if isinstance(inner, ToolCallStartEvent | ToolCallDeltaEvent | ToolCallEndEvent):
        block = inner.partial.content[inner.content_index]
        if isinstance(block, ToolCall):
            index = state._tools.get(block.id)
            if index is None:
                _tool_item(state, block)
            else:
                state.touch(index)
            return
    if state._assistant is not None:
        state.touch(state._assistant)


def _on_message_start(state: TuiState, message: AgentMessage) -> None:
    if isinstance(message, AssistantMessage):
        state._assistant = state.add(AssistantItem(message))
        state.turns += 1
        if state.retry_at is not None:  # the wait is over: the retried request is answering
            state.retry_at = None
            state._footer_changed = True
    elif isinstance(message, UserMessage):
        text = text_of(message.content, image="[image]")
        for i, queued in enumerate(state.queue):
            if queued.text == text:
                del state.queue[i]
                state._queue_changed = True
                break
        state.add(_user_item(message))
    elif not isinstance(message, ToolResultMessage):
        add_message(state, message)


def _on_message_end(state: TuiState, message: AgentMessage) -> None:
    if not isinstance(message, AssistantMessage):
        return
    index = state._assistant
    if index is None:  # an end without a start (a stopped run's note): show it whole
        add_message(state, message)
        return
    item = state.items[index]
    assert isinstance(item, AssistantItem)
    item.message, item.done = message, True
    state._assistant = None
    state.touch(index)
    for call in message.tool_calls:
        if call.id not in state._tools:
            _tool_item(state, call)
    _finish_reply(state, message)


def _add_usage(state: TuiState, u: Usage) -> None:
    state.usage.add(u)
    state._footer_changed = True


def _finish_reply(state: TuiState, message: AssistantMessage) -> None:
    u = message.usage
    _add_usage(state, u)
    context = u.input + u.output + u.cache_read + u.cache_write
    if context and message.timestamp >= state._compacted_at:  # a reply kept by a compaction
        state.context_tokens = context  # measured the context before it: not this one
    state._footer_changed = True
    if message.stop_reason == "error":
        state.add(ErrorItem(message.error_message or "The model call failed."))
    elif message.stop_reason == "aborted":
        state.add(NoticeItem("Cancelled. Send a message to continue from here.", "warning"))
    elif (notice := reply_notice(message)) is not None:
        state.add(NoticeItem(notice.line(), "warning"))


def _context_replaced(state: TuiState) -> None:
    """A compaction made the context smaller than the last reply measured: the footer falls
    back to the session's estimate until a reply measures it again."""
    state.context_tokens = None
    state._footer_changed = True


def _tool_item(state: TuiState, call: ToolCall) -> int:
    index = state.add(ToolItem(call.id, call.name, call.arguments))
    state._tools[call.id] = index
    state._open_tools.add(call.id)
    state.tool_calls += 1
    return index


def discount_wait(state: TuiState, seconds: float) -> None:
    """The running tools' clocks skip ``seconds`` the person took to answer a dialog: a call
    asked about waits for the answer before it runs (it counted the wait as its own time), and a
    tool that asks the person mid-run is not working while they think."""
    for call_id in state._open_tools:
        index = state._tools[call_id]
        item = state.items[index]
        assert isinstance(item, ToolItem)
        if item.started is not None:
            item.started += seconds
            state.touch(index)


def _on_agent_end(state: TuiState, now: float) -> None:
    for call_id in state._open_tools:
        index = state._tools[call_id]
        item = state.items[index]
        assert isinstance(item, ToolItem)
        item.status, item.ended = "error", now
        item.output = item.output or "Interrupted before it finished."
        state.touch(index)
    state._open_tools.clear()
    state._assistant = None
    set_status(state, "idle")


__all__ = [
    "RETRY_HINT",
    "AssistantItem",
    "BashItem",
    "Changes",
    "ErrorItem",
    "Item",
    "NoticeItem",
    "NoticeTone",
    "QueueKind",
    "QueuedMessage",
    "RunStatus",
    "ToolItem",
    "TuiState",
    "UserItem",
    "add_error",
    "add_message",
    "add_notice",
    "apply",
    "discount_wait",
    "from_messages",
    "queue_message",
    "set_status",
    "take_queue",
]

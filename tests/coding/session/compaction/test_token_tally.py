"""TokenTally answers exactly what a full scan answers, while the transcript grows."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tau_agent.content import TextContent
from tau_agent.messages import AgentMessage, AssistantMessage, CompactionSummaryMessage, Usage, UserMessage
from tau_coding.session.compaction.context_usage import TokenTally, estimate_message_tokens, last_usage_index

KINDS = st.sampled_from(["user", "reply", "reply_no_usage", "failed", "summary"])


def _message(kind: str, n: int) -> AgentMessage:
    if kind == "user":
        return UserMessage("x" * (n % 50), timestamp=n)
    if kind == "summary":
        return CompactionSummaryMessage("summary", timestamp=n)
    usage = Usage(input=10 + n) if kind in ("reply", "failed") else Usage()
    stop = "error" if kind == "failed" else "stop"
    return AssistantMessage([TextContent("y" * (n % 30))], usage=usage, stop_reason=stop, timestamp=n)


@settings(max_examples=200, deadline=None)
@given(st.lists(KINDS, max_size=40), st.integers(0, 10))
def test_growing_transcript_matches_full_scan(kinds: list[str], trust_from: int) -> None:
    tally = TokenTally()
    record: list[AgentMessage] = []
    for n, kind in enumerate(kinds):
        record.append(_message(kind, n))
        assert tally.anchor(record, trust_from) == last_usage_index(record, trust_from)
        assert tally.total(record) == sum(estimate_message_tokens(m) for m in record)


@settings(max_examples=200, deadline=None)
@given(st.lists(KINDS, max_size=40), st.integers(0, 10), st.lists(st.booleans(), min_size=40, max_size=40))
def test_a_copy_of_the_transcript_each_time_matches_full_scan(
    kinds: list[str], trust_from: int, copies: list[bool]
) -> None:
    """A caller that hands over a new list (a copy of the record) where another handed the
    one before: the tally starts over from the end, to the same answers."""
    tally = TokenTally()
    record: list[AgentMessage] = []
    for n, kind in enumerate(kinds):
        record.append(_message(kind, n))
        given_list = list(record) if copies[n] else record
        assert tally.anchor(given_list, trust_from) == last_usage_index(record, trust_from)
        assert tally.total(given_list) == sum(estimate_message_tokens(m) for m in record)


def test_a_new_list_starts_over() -> None:
    tally = TokenTally()
    first = [_message("reply", 1)]
    assert tally.anchor(first) == 0
    assert tally.anchor([_message("user", 2)]) == -1

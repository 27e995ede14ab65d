"""A fork's index and replay, made from its source's, are what building them afresh gives:
whatever the session holds (branches, compactions, labels, leaf markers, tool calls left
without results, summaries, model and thinking changes), wherever the fork is made, and
wherever the source's last replay was."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tau_agent.content import TextContent, ToolCall
from tau_agent.messages import AssistantMessage, ToolResultMessage, UserMessage
from tau_agent.session.entries import SessionHeader
from tau_agent.session.log import SessionLog
from tau_agent.session.storage import InMemorySessionStorage
from tau_agent.session.tree import SessionTree

Op = tuple[str, int, int]

ops = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "user",
                "user",
                "calls",
                "navigate",
                "compact",
                "label",
                "unlabel",
                "name",
                "custom",
                "custom_message",
                "branch_summary",
                "model",
                "thinking",
                "replay",
            ]
        ),
        st.integers(0, 1000),
        st.integers(0, 3),
    ),
    min_size=1,
    max_size=30,
)


def build(steps: list[Op]) -> SessionLog:
    """A session made by ``steps``; "replay" replays it where it stands (the source's latest
    replay is what a fork cuts its own from)."""
    log = SessionLog(InMemorySessionStorage(SessionHeader.new("/p")))
    log.append_message(UserMessage("start"))
    log.append_message(AssistantMessage([TextContent("ok")], provider="p", model="m"))
    for kind, n, k in steps:
        ids = [e.id for e in log.entries]
        target = ids[n % len(ids)]
        if kind == "user":
            log.append_message(UserMessage(f"ask {n}"))
        elif kind == "calls":  # a reply with three calls, ``k`` of them answered (a crash between)
            calls = [ToolCall(f"c{n}-{i}", "read", {"path": str(i)}) for i in range(3)]
            log.append_message(AssistantMessage([TextContent("look"), *calls], stop_reason="toolUse"))
            for call in calls[:k]:
                log.append_message(ToolResultMessage(call.id, "read", [TextContent("body")]))
        elif kind == "navigate":
            log.navigate(None if n % 7 == 0 else target)
        elif kind == "compact":
            log.append_compaction(f"summary {n}", target, n)
        elif kind == "label":
            log.set_label(target, f"mark {k}")
        elif kind == "unlabel":
            log.set_label(target, None)
        elif kind == "name":
            log.set_name(f"name {n}")
        elif kind == "custom":
            log.append_custom("ext", {"n": n})
        elif kind == "custom_message":
            log.append_custom_message("ext", f"note {n}", display=bool(k % 2))
        elif kind == "branch_summary":
            log.append_branch_summary(None if n % 5 == 0 else target, f"branch {n}")
        elif kind == "model":
            log.append_model_change("p", f"m{k}")
        elif kind == "thinking":
            log.append_thinking_level_change(["off", "low", "high", "medium"][k])
        elif kind == "replay":
            log.state()
    return log


def same_tree(a: SessionTree, b: SessionTree) -> None:
    assert [e.id for e in a] == [e.id for e in b]
    for entry in b:
        assert a.path(entry.id) == b.path(entry.id)
        assert a.children(entry.id) == b.children(entry.id)
    assert a.roots() == b.roots() and a.branch_points() == b.branch_points()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops, st.none() | st.integers(0, 1000))
def test_a_fork_made_from_its_source_is_the_fork_built_afresh(steps: list[Op], at: int | None) -> None:
    source = build(steps)
    ids = [e.id for e in source.entries]
    leaf = None if at is None else ids[at % len(ids)]
    branch = source.branch(leaf)
    header = SessionHeader.new("/p")
    made = SessionLog(
        InMemorySessionStorage(header, branch.entries),
        made_from=branch,
        new_id=lambda: "next",
        clock=lambda: "2026-01-01T00:00:00.000Z",
    )
    built = SessionLog(
        InMemorySessionStorage(header, branch.entries),
        new_id=lambda: "next",
        clock=lambda: "2026-01-01T00:00:00.000Z",
    )
    same_tree(made.tree, built.tree)
    assert made.leaf_id == built.leaf_id
    assert (made.labels, made.name) == (built.labels, built.name)
    assert made.state() == built.state()
    assert made.state() == built.state()  # the kept replay is not handed out to be changed
    # both go on alike
    after = UserMessage("after the fork")
    for log in (made, built):
        log.append_message(after)
    same_tree(made.tree, built.tree)
    assert made.state().messages == built.state().messages


def test_a_fork_of_a_session_that_never_branched_builds_neither_its_index_nor_its_replay() -> None:
    source = build([("user", 1, 0), ("calls", 2, 3), ("user", 3, 0), ("calls", 4, 1)])
    replayed = source.state()  # as a session being worked on was replayed when it was opened
    last_user = max(i for i, e in enumerate(source.entries) if "ask 3" in repr(e))
    branch = source.branch(source.entries[last_user - 1].id)
    assert branch.tree is not None and branch.replay is not None
    forked = SessionLog(InMemorySessionStorage(SessionHeader.new("/p"), branch.entries), made_from=branch)
    state = forked.state()
    assert state.messages == replayed.messages[: len(state.messages)]
    assert state == SessionLog(InMemorySessionStorage(SessionHeader.new("/p"), branch.entries)).state()


def test_a_fork_past_a_reply_whose_calls_were_answered_later_answers_them_with_errors() -> None:
    source = build([("calls", 1, 3), ("user", 2, 0)])
    source.state()
    reply = next(e for e in source.entries if "look" in repr(e))
    branch = source.branch(reply.id)  # the results come after the fork point: not copied
    assert branch.replay is not None
    messages = branch.replay.messages
    assert isinstance(messages[-4], AssistantMessage)
    assert [m.is_error for m in messages[-3:] if isinstance(m, ToolResultMessage)] == [True] * 3
    assert branch.replay.repaired_tool_calls == 3

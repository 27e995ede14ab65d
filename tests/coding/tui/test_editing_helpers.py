"""The editor's pure helpers: history ring, paste markers, what a submitted line is."""

from __future__ import annotations

from tau_coding.tui.history import PromptHistory
from tau_coding.tui.paste import PasteStore
from tau_coding.tui.submission import classify


def test_history_walks_back_and_returns_to_the_draft() -> None:
    history = PromptHistory(["one", "two"])
    assert history.older("draft") == "two"
    assert history.older("two") == "one"
    assert history.older("one") is None
    assert history.newer() == "two"
    assert history.newer() == "draft"
    assert history.newer() is None


def test_history_skips_blank_and_repeated_entries_and_keeps_the_newest_hundred() -> None:
    history = PromptHistory()
    for i in range(150):
        history.add(f"p{i}")
        history.add(f"p{i}")
    history.add("   ")
    assert len(history.entries) == 100 and history.entries[0] == "p50" and history.entries[-1] == "p149"


def test_large_paste_collapses_to_a_marker_and_expands_back() -> None:
    store = PasteStore()
    many_lines = "\n".join(f"line {i}" for i in range(30))
    long_line = "x" * 1500
    marker_a = store.collapse(many_lines)
    marker_b = store.collapse(long_line)
    assert marker_a == "[paste #1 +30 lines]" and marker_b == "[paste #2 1500 chars]"
    assert store.collapse("short\ntext") is None
    assert store.expand(f"see {marker_a} and {marker_b}.") == f"see {many_lines} and {long_line}."


def test_an_edited_marker_is_left_as_typed() -> None:
    store = PasteStore()
    store.collapse("y" * 2000)
    assert store.expand("[paste #7 +3 lines]") == "[paste #7 +3 lines]"


def test_classify_commands_shell_and_prompts() -> None:
    assert classify("/model gpt").kind == "command"
    assert (classify("/model gpt").name, classify("/model gpt").args) == ("model", "gpt")
    assert classify("/tmp/x is odd").kind == "prompt"  # a path, not a command
    bang = classify("!ls -la")
    assert (bang.kind, bang.args, bang.exclude_from_context) == ("bash", "ls -la", False)
    assert classify("!!git status").exclude_from_context
    assert classify("!").kind == "prompt"
    assert classify("/multi\nline").kind == "prompt"
    assert classify("hello").kind == "prompt"

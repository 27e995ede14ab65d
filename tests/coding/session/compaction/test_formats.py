"""Serialised transcripts, file lists and compaction events match their golden files."""

from __future__ import annotations

import pytest

from tau_agent.content import TextContent
from tau_agent.messages import ToolResultMessage, UserMessage
from tau_coding.session.compaction.file_ops import collect_file_ops, strip_file_lists
from tau_coding.session.compaction.serialize import TOOL_RESULT_CHARS, chunk_messages, serialize_message
from tests.coding.session.compaction.goldens import CASES, GOLDEN, conversation


@pytest.mark.parametrize("name", sorted(CASES))
def test_format_matches_golden_file(name: str) -> None:
    expected = (GOLDEN / name).read_text(encoding="utf-8")
    assert CASES[name]() == expected, "run: .venv/bin/python -m tests.coding.session.compaction.goldens"


def test_long_tool_results_are_clipped_but_say_so() -> None:
    text = serialize_message(ToolResultMessage("c", "bash", [TextContent("z" * 10_000)]))
    assert len(text) < TOOL_RESULT_CHARS + 100 and "8000 more characters left out" in text


def test_chunks_fit_the_budget_and_cut_between_messages() -> None:
    messages = [UserMessage(f"{i}:" + "w" * 900) for i in range(20)]
    chunks = chunk_messages(messages, 3_000)
    assert len(chunks) == 7 and all(len(c) <= 3_000 for c in chunks)
    assert "".join(chunks).count("[User]:") == 20
    huge = chunk_messages([UserMessage("h" * 50_000)], 3_000)
    assert len(huge) == 1 and len(huge[0]) < 3_100


def test_a_file_read_then_modified_is_listed_once_as_modified() -> None:
    ops = collect_file_ops(conversation())
    assert ops.to_details() == {"readFiles": [], "modifiedFiles": ["config.py"]}
    ops.add_details({"readFiles": ["x.py", 3], "modifiedFiles": "bad"})
    assert ops.to_details()["readFiles"] == ["x.py"]


def test_file_lists_are_stripped_before_a_summary_is_updated() -> None:
    summary = "## Goal\nG\n\n<read-files>\na.py\n</read-files>\n\n<modified-files>\nb.py\n</modified-files>"
    assert strip_file_lists(summary) == "## Goal\nG"

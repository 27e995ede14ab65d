"""Compact text for rows and the footer."""

from __future__ import annotations

from tau_agent.events import AgentEndEvent, AgentStartEvent
from tau_coding.tui.footer_format import context_segment, footer_lines
from tau_coding.tui.port import SessionInfo
from tau_coding.tui.state import TuiState, apply, set_status
from tau_coding.tui.summaries import args_summary, elapsed, preview, tokens


def test_args_summary_says_what_each_tool_does() -> None:
    assert args_summary("read", {"path": "a.py", "offset": 10, "limit": 21}) == "a.py:10-30"
    assert args_summary("bash", {"command": "ls  -la\n", "timeout": 5}) == "$ ls -la (timeout 5s)"
    assert args_summary("edit", {"path": "x.py", "old": "a", "new": "b"}) == "x.py"
    assert args_summary("custom", {"q": 1}) == '{"q": 1}'
    assert len(args_summary("bash", {"command": "x" * 500}, width=40)) == 40


def test_preview_shows_head_or_tail_and_counts_the_rest() -> None:
    text = "\n".join(str(i) for i in range(20))
    assert preview(text, lines=3) == "0\n1\n2\n… 17 more lines"
    assert preview(text, lines=3, tail=True) == "… 17 earlier lines\n17\n18\n19"


def test_numbers() -> None:
    assert (tokens(999), tokens(1200), tokens(200_000), tokens(1_500_000)) == ("999", "1.2k", "200k", "1.5M")
    assert (elapsed(1.25), elapsed(75)) == ("1.2s", "1m15s")


def test_context_colour_warns_over_seventy_and_ninety_percent() -> None:
    assert context_segment(100_000, 200_000) == ("50.0%/200k", "")
    assert context_segment(150_000, 200_000)[1] == "warn"
    assert context_segment(190_000, 200_000)[1] == "bad"
    assert context_segment(None, 200_000) == ("?/200k", "dim")


def test_footer_lines_show_place_model_and_status() -> None:
    info = SessionInfo("/home/u/proj", "anthropic/claude", "high", "refactor", git_branch="main")
    state = TuiState()
    set_status(state, "running")
    where, stats = footer_lines(info, state, "/home/u")
    assert "".join(t for t, _ in where) == "~/proj (main) • refactor"
    line = "".join(t for t, _ in stats)
    assert "anthropic/claude • high" in line and "working" in line


def test_split_finished_cuts_before_the_last_block_and_never_inside_code() -> None:
    from tau_coding.tui.markdown_blocks import split_finished

    text = "Intro\nwith a soft break.\n\n```\ncode\n\nmore code\n```\n- a\n- b\n\n---\nlast, growing"
    split = split_finished(text)
    assert [b.source for b in split.blocks] == [
        "Intro\nwith a soft break.\n\n",
        "```\ncode\n\nmore code\n```\n",
        "- a\n- b\n\n",
        "---\n",
    ]
    assert [b.gap for b in split.blocks] == [True, True, True, False]  # Rich: no blank line after a rule
    assert text[split.rest :] == "last, growing"
    assert split_finished("```\nan open fence\n\nstill code").blocks == ()
    assert split_finished("one block").rest == 0
    assert split_finished("[a]: https://a\n\ntext").references


def test_a_run_that_takes_a_while_shows_its_seconds_and_how_to_cancel_it() -> None:
    # A local model loading for 20 s showed "working…" alone, as a hung one would.
    info = SessionInfo("/home/u/proj", "local/m", "off", None)
    state = TuiState()
    apply(state, AgentStartEvent(), 100.0)

    def status(now: float, working: str | None = None) -> str:
        return "".join(t for t, _ in footer_lines(info, state, "/home/u", now=now, working=working)[1])

    assert status(100.4).endswith("working…")
    assert status(112.9).endswith("working… 12s · Esc cancels")
    assert status(112.9, working="● indexing").endswith("● indexing")  # an extension's own status
    apply(state, AgentEndEvent(messages=[]), 113.0)
    assert state.run_started is None and "working" not in status(120.0)


def test_a_preview_cuts_a_long_line_and_says_how_much_it_left_out() -> None:
    line = "Q" * 5000
    assert preview(line) == "Q" * 480 + " … (4,520 more characters)"
    assert (
        preview(f"head\n{line}\n" + "x\n" * 10, lines=2)
        == "head\n" + "Q" * 480 + " … (4,520 more characters)\n… 10 more lines"
    )
    assert preview(line + "END", tail=True) == "(4,523 earlier characters) … " + "Q" * 477 + "END"


def test_a_tool_row_shows_a_redrawn_progress_line_in_its_last_state() -> None:
    from tau_coding.tui.state import ToolItem
    from tau_coding.tui.widgets.tool_row import body

    bar = "".join(f"\rdownloading {i / 10:.1f}%" for i in range(1001)) + "\ndone\n"  # 20k characters
    for status in ("running", "ok"):
        shown = body(ToolItem("c1", "bash", {"command": "fetch"}, status=status, output=bar), expanded=False)
        assert str(shown) == "downloading 100.0%\ndone"

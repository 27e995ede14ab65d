"""The progress bar (only on a terminal) and the summary table."""

from __future__ import annotations

import io

from tau_coding.batch.report import ProgressView, print_summary
from tau_coding.batch.results import TaskResult, Tokens


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_is_drawn_only_on_a_terminal() -> None:
    result = TaskResult(id="a", status="done")
    for stream, drawn in ((_Terminal(), True), (io.StringIO(), False)):
        with ProgressView(stream, total=2) as progress:
            progress.started()
            progress.finished(result)
        assert ("tau batch" in stream.getvalue()) is drawn
        assert bool(stream.getvalue()) is drawn


def test_the_summary_has_a_row_per_status_with_totals() -> None:
    out = io.StringIO()
    results = [
        TaskResult(
            id="a", status="done", passed=True, turns=2, tokens=Tokens(1, 1, 100), cost=0.5, wall_time=1.0
        ),
        TaskResult(
            id="b", status="done", passed=True, turns=3, tokens=Tokens(1, 1, 200), cost=0.25, wall_time=2.0
        ),
        TaskResult(id="c", status="timeout", turns=1, wall_time=9.0),
    ]
    print_summary(out, results, skipped=4)
    rows = {line.split("│")[1].strip(): line for line in out.getvalue().splitlines() if line.count("│") > 3}
    assert set(rows) == {"done", "timeout"}  # (the header row is drawn with other lines)
    done = [cell.strip() for cell in rows["done"].split("│")[1:-1]]
    assert done == ["done", "2", "2", "5", "300", "$0.7500", "3.0s"]
    assert "4 task(s) already had a result" in out.getvalue()

"""The results file: whole lines appended and fsynced; the last line of a task wins on resume."""

from __future__ import annotations

from pathlib import Path

from tau_coding.batch.results import ResultsFile, TaskResult, Tokens, latest_statuses, read_results


def test_appended_results_read_back_and_the_last_line_of_a_task_wins(tmp_path: Path) -> None:
    path = tmp_path / "out" / "results.jsonl"
    results = ResultsFile(path)
    results.append(TaskResult(id="a", status="failed", error="check failed"))
    results.append(TaskResult(id="b", status="done", tokens=Tokens(1, 2, 3), diff="+x\n", passed=True))
    results.append(TaskResult(id="a", status="done", attempts=2))
    results.close()
    assert latest_statuses(path) == {"a": "done", "b": "done"}
    full = read_results(path)
    assert full["a"].attempts == 2 and full["b"].tokens.total == 3 and full["b"].diff == "+x\n"
    assert len(path.read_text().splitlines()) == 3


def test_a_torn_last_line_is_skipped_with_one_warning_and_the_next_result_is_whole(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    results = ResultsFile(path)
    results.append(TaskResult(id="a", status="done"))
    results.close()
    with path.open("ab") as f:
        f.write(b'{"id": "b", "stat')  # a crash mid-write
    warnings: list[str] = []
    assert latest_statuses(path, warnings.append) == {"a": "done"}
    assert len(warnings) == 1 and warnings[0].startswith(f"{path}:2: skipped")
    again = ResultsFile(path)
    again.append(TaskResult(id="c", status="timeout"))
    again.close()
    assert latest_statuses(path) == {"a": "done", "c": "timeout"}


def test_no_file_means_no_results(tmp_path: Path) -> None:
    assert latest_statuses(tmp_path / "none.jsonl") == {}
    assert read_results(tmp_path / "none.jsonl") == {}

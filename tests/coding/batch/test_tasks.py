"""Task lines: decoded with msgspec; a bad line is one problem naming its line, the rest still run."""

from __future__ import annotations

from tau_coding.batch.tasks import Task, parse_tasks


def test_good_lines_become_tasks_with_their_limits() -> None:
    data = (
        b'{"id": "a", "prompt": "fix it", "cwd": "src", "max_turns": 3, "timeout": 9.5, "meta": {"k": 1}}\n'
        b"\n"
        b'{"id": "b", "prompt": "go", "repo": "r.git", "ref": "v1", "model": "openai/gpt-x", "tools": ["read"]}\n'
    )
    tasks, problems = parse_tasks(data)
    assert problems == []
    assert tasks[0] == Task(id="a", prompt="fix it", cwd="src", max_turns=3, timeout=9.5, meta={"k": 1})
    assert (tasks[1].repo, tasks[1].ref, tasks[1].tools, tasks[1].provider) == (
        "r.git",
        "v1",
        ["read"],
        "openai",
    )
    assert tasks[0].provider == "default"


def test_each_bad_line_is_named_by_number_and_the_rest_are_kept() -> None:
    data = b"\n".join(
        [
            b'{"id": "ok1", "prompt": "p"}',
            b"{not json",
            b'{"id": "x", "prompt": "p", "colour": "red"}',
            b'{"id": "y"}',
            b'{"id": "ok1", "prompt": "again"}',
            b'{"id": "z", "prompt": "p", "cwd": "a", "repo": "b"}',
            b'{"id": "w", "prompt": "p", "max_turns": 0}',
            b'{"id": "v", "prompt": "p", "ref": "main"}',
            b'{"id": "ok2", "prompt": "p"}',
        ]
    )
    tasks, problems = parse_tasks(data)
    assert [t.id for t in tasks] == ["ok1", "ok2"]
    assert [p.line for p in problems] == [2, 3, 4, 5, 6, 7, 8]
    described = [p.describe("tasks.jsonl") for p in problems]
    assert described[0].startswith("tasks.jsonl:2: not a task:")
    assert "colour" in described[1]
    assert "prompt" in described[2]
    assert "earlier line" in described[3]
    assert "cwd or repo" in described[4]
    assert "max_turns must be positive" in described[5]
    assert "ref needs repo" in described[6]
    assert all("\n" not in line for line in described)

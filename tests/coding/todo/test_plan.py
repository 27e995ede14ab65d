"""A plan's text as task-list steps (pure), and an approved plan becoming the session's list."""

from __future__ import annotations

from pathlib import Path

from tau_agent.session.entries import SessionHeader
from tau_agent.session.log import SessionLog
from tau_agent.session.storage import InMemorySessionStorage
from tau_coding.todo.items import TodoItem, todos_on_path
from tau_coding.todo.plan import plan_steps, record_plan

PLAN = """Here is the plan:

1. **Read** `parse_date` in utils.py
   - note every caller
   - check the tests
2) Replace the regex with `datetime.strptime`:
3. Run the tests

```python
1. not a step
- nor this
```

Risks:
- slower on old inputs
"""


def test_top_level_numbered_steps_win_over_bullets_and_code() -> None:
    assert plan_steps(PLAN) == [
        "Read `parse_date` in utils.py",
        "Replace the regex with `datetime.strptime`",
        "Run the tests",
    ]


def test_bullets_and_checkboxes_when_nothing_is_numbered() -> None:
    text = "Plan\n\n* find the callers\n  * one nested\n- [ ] change them\n• test\n"
    assert plan_steps(text) == ["find the callers", "change them", "test"]


def test_headed_and_step_worded_numbering() -> None:
    text = "### 1. Survey\nwords\n### 2. Change\nStep 3: Verify\n"
    assert plan_steps(text) == ["Survey", "Change", "Verify"]


def test_prose_without_steps_gives_none() -> None:
    assert plan_steps("I would change the regex, then run the tests. 2 files change.") == []
    assert plan_steps("") == []


def test_recorded_steps_are_the_list_on_the_path(tmp_path: Path) -> None:
    log = SessionLog(InMemorySessionStorage(SessionHeader.new(str(tmp_path))))
    assert record_plan(log, "1. one\n2. two") == 2
    assert todos_on_path(log.path()) == [TodoItem("one"), TodoItem("two")]
    assert record_plan(log, "no steps here") == 0  # the list in force stays
    assert todos_on_path(log.path()) == [TodoItem("one"), TodoItem("two")]

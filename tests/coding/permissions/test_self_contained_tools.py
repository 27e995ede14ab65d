"""``todo`` and ``task`` run unasked in every mode: a child agent's steps are decided one by one."""

from __future__ import annotations

import pytest

from tau_coding.permissions.engine import decide
from tau_coding.permissions.modes import PermissionMode
from tau_coding.permissions.paths import Places
from tau_coding.permissions.rules import RuleSet

PLACES = Places("/proj", "/home/u", "/home/u/.tau")


@pytest.mark.parametrize("mode", ["ask", "accept-edits", "plan", "workspace"])
@pytest.mark.parametrize("tool", ["todo", "task"])
def test_the_task_list_and_subagents_run_unasked(tool: str, mode: PermissionMode) -> None:
    assert (
        decide(tool, {"prompt": "look around"}, RuleSet.from_settings({}), mode, PLACES).behavior == "allow"
    )


def test_a_deny_rule_still_stops_them() -> None:
    rules = RuleSet.from_settings({"deny": ["task"]})
    assert decide("task", {"prompt": "x"}, rules, "ask", PLACES).behavior == "deny"

"""The permission engine's decision time with 100 rules (issue 20: <= 50 us per call).

CPU time (user + sys, ``time.process_time``) per decision, the best of several rounds, so the
number holds on a loaded machine. Bash lines are parsed once and cached, as in a session where
the same command is decided again after an approval; the first parse of a new line is reported
on its own ("cold").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tau_coding.permissions.engine import decide
from tau_coding.permissions.paths import Places
from tau_coding.permissions.rules import RuleSet
from tau_coding.permissions.shell import parse_shell

Case = tuple[str, Callable[[], float], str, float | None]

PLACES = Places("/work/project", "/home/user", "/home/user/.tau")


def hundred_rules() -> RuleSet:
    allow = [f"Bash(tool{i} sub:*)" for i in range(58)] + [f"Edit(src/pkg{i}/**)" for i in range(20)]
    allow += ["Bash(git diff:*)", "Bash(npm run test:*)", "mcp__github", "WebFetch(domain:example.com)"]
    deny = [f"Bash(rm{i}:*)" for i in range(10)] + [f"Read(secret{i}/**)" for i in range(4)]
    ask = [f"Bash(ask{i}:*)" for i in range(4)]
    rules = RuleSet.parse(allow, ask, deny)
    assert len(rules.allow) + len(rules.ask) + len(rules.deny) == 100
    return rules


CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "bash compound, allowed": ("bash", {"command": "FOO=1 git diff --stat && npm run test:unit | git diff"}),
    "bash with a substitution": ("bash", {"command": "git diff $(cat list.txt) > out.txt"}),
    "edit under a rule": ("edit", {"path": "src/pkg19/deep/module.py"}),
    "write outside the project": ("write", {"path": "/tmp/notes.txt"}),
    "read": ("read", {"path": "README.md"}),
    "mcp tool": ("mcp__github__list_issues", {"repo": "x"}),
}


def decision_us(tool: str, args: dict[str, Any], calls: int = 5000, rounds: int = 5) -> float:
    rules = hundred_rules()
    decide(tool, args, rules, "ask", PLACES)
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(calls):
            decide(tool, args, rules, "ask", PLACES)
        best = min(best, (time.process_time() - start) / calls)
    return best * 1e6


def cold_parse_us(count: int = 500) -> float:
    """A line never seen before: the tree-sitter parse plus the walk, per line."""
    start = time.process_time()
    for i in range(count):
        parse_shell(f"git diff --stat file{i}.py && npm run test:unit -- --grep case{i} | tee log{i}.txt")
    return (time.process_time() - start) / count * 1e6


def cases(smoke: bool) -> list[Case]:
    calls = 200 if smoke else 5000
    out: list[Case] = [
        (
            f"permissions: decide, 100 rules, {name}",
            lambda tool=tool, args=args: decision_us(tool, args, calls),
            "us",
            None if smoke else 50.0,
        )
        for name, (tool, args) in CALLS.items()
    ]
    out.append(("permissions: parse a new bash line (cold)", cold_parse_us, "us", None))
    return out

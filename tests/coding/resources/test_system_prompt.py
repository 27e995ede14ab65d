"""The system prompt: layout, overrides, cache-friendliness, and its size budget."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from tau_coding.resources.context_files import ContextFile
from tau_coding.resources.skill_files import Skill
from tau_coding.resources.system_prompt import build_system_prompt

from .prompt_cases import CASES, CWD, DEFAULT_TOOLS, GOLDEN, TODAY, default_prompt

BASE_PROMPT_BUDGET = 2048
"""Bytes for the whole default prompt with four tools: the rest of a ~5.6 KB first request is
left for the tool schemas and the user's message."""

SKILL = Skill("lint", "Fix lint errors.", Path("/s/lint/SKILL.md"), Path("/s/lint"), "project", "body")


@pytest.mark.parametrize("name", sorted(CASES))
def test_prompt_matches_its_golden_file(name: str) -> None:
    golden = (GOLDEN / name).read_text(encoding="utf-8")
    assert CASES[name]() == golden, "wording changed: python -m tests.coding.resources.prompt_cases"


def test_default_prompt_with_four_tools_stays_under_budget() -> None:
    prompt = default_prompt()
    size = len(prompt.encode("utf-8"))
    as_json = len(json.dumps({"role": "system", "content": prompt}).encode("utf-8"))
    print(f"default system prompt: {size} bytes, {as_json} bytes as a JSON message")
    assert size <= BASE_PROMPT_BUDGET
    assert as_json <= BASE_PROMPT_BUDGET + 100


def build(**overrides: object) -> str:
    arguments: dict[str, object] = {
        "tools": DEFAULT_TOOLS,
        "base_override": None,
        "append": [],
        "context_files": [],
        "skills": [],
        "cwd": CWD,
        "today": TODAY,
    }
    arguments.update(overrides)
    return build_system_prompt(**arguments)  # type: ignore[arg-type]


def test_every_active_tool_is_listed_with_its_snippet_and_guidelines() -> None:
    prompt = build()
    for tool in DEFAULT_TOOLS:
        assert f"- {tool.name}: {tool.prompt_snippet}" in prompt
        for line in tool.prompt_guidelines:
            assert f"- {line}" in prompt


def test_only_active_tools_are_listed() -> None:
    prompt = build(tools=DEFAULT_TOOLS[:1])
    assert "- read:" in prompt and "- bash:" not in prompt and "Use write only" not in prompt


def test_without_tools_there_is_no_tool_list() -> None:
    assert "Tools:" not in build(tools=())


def test_shared_guidelines_appear_once() -> None:
    twice = (DEFAULT_TOOLS[0], DEFAULT_TOOLS[0])
    line = DEFAULT_TOOLS[0].prompt_guidelines[0]
    assert build(tools=twice).count(line) == 1


def test_tool_without_snippet_falls_back_to_its_description() -> None:
    tool = replace(DEFAULT_TOOLS[3], prompt_snippet=None, description="Run things.\nMore detail here.")
    assert "- bash: Run things." in build(tools=(tool,))
    assert "More detail" not in build(tools=(tool,))


def test_override_replaces_the_base_but_keeps_everything_after_it() -> None:
    prompt = build(
        base_override="You are a pirate.\n",
        append=["Say arr."],
        context_files=[ContextFile(CWD / "AGENTS.md", "Use tabs.")],
        skills=[SKILL],
    )
    assert prompt.startswith("You are a pirate.\n\nSay arr.\n\n# Project context")
    assert "You are Tau" not in prompt and "Tools:" not in prompt
    assert f"## {CWD / 'AGENTS.md'}\n\nUse tabs." in prompt
    assert "<name>lint</name>" in prompt
    assert prompt.endswith(f"Current date: 2026-11-30\nCurrent working directory: {CWD}")


def test_sections_come_in_order() -> None:
    prompt = build(
        append=["APPENDED"], context_files=[ContextFile(CWD / "AGENTS.md", "CONTEXT")], skills=[SKILL]
    )
    positions = [
        prompt.index(marker) for marker in ("You are Tau", "APPENDED", "CONTEXT", "<available_skills>")
    ]
    assert positions == sorted(positions)
    assert prompt.index("<available_skills>") < prompt.index("Current date:")


def test_skills_need_the_read_tool() -> None:
    assert "<available_skills>" not in build(tools=DEFAULT_TOOLS[1:], skills=[SKILL])
    assert "<available_skills>" in build(tools=DEFAULT_TOOLS[:1], skills=[SKILL])


def test_prompt_carries_the_date_but_no_time_and_is_deterministic() -> None:
    prompt = build(context_files=[ContextFile(CWD / "AGENTS.md", "x")], skills=[SKILL])
    assert "2026-11-30" in prompt
    assert re.search(r"\d{1,2}:\d{2}", prompt) is None
    assert prompt == build(context_files=[ContextFile(CWD / "AGENTS.md", "x")], skills=[SKILL])


def test_blank_appends_are_dropped() -> None:
    assert build(append=["", "  \n"]) == build()

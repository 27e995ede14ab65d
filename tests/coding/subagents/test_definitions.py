"""Agent definitions: Tau's and Claude Code's Markdown files, and where they are looked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_coding.config.paths import TauPaths
from tau_coding.subagents.definitions import AgentDefinitionError, parse_agent_file
from tau_coding.subagents.discovery import agent_dirs, load_agents


def test_a_claude_code_agent_file_maps_its_tool_names_and_inherits_the_model() -> None:
    text = (
        "---\nname: reviewer\ndescription: Reviews diffs\ntools: Read, Grep, Glob, WebFetch\n"
        "model: inherit\n---\nYou review code.\n"
    )
    agent = parse_agent_file(text, source="r.md", fallback_name="r")
    assert (agent.name, agent.description, agent.prompt) == ("reviewer", "Reviews diffs", "You review code.")
    assert agent.tools == ("read", "grep", "find")  # WebFetch: Tau has no such tool
    assert agent.model is None


def test_a_tau_agent_file_names_its_model_and_thinking_and_the_stem_names_it() -> None:
    text = "---\ntools: [read, bash]\nmodel: scripted/second-model\nthinking: high\n---\nRun tests.\n"
    agent = parse_agent_file(text, source="t.md", fallback_name="tester")
    assert (agent.name, agent.tools, agent.model, agent.thinking) == (
        "tester",
        ("read", "bash"),
        "scripted/second-model",
        "high",
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("---\nname: two words\n---\nx\n", "name must be one word"),
        ("---\nthinking: extreme\n---\nx\n", "thinking must be one of"),
        ("---\nname: empty\n---\n\n", "body"),
        ("---\nname: [oops\n---\nx\n", "x.md"),
    ],
)
def test_a_bad_file_is_one_line_naming_it(text: str, problem: str) -> None:
    with pytest.raises(AgentDefinitionError, match=problem):
        parse_agent_file(text, source="x.md", fallback_name="x")


def test_user_then_project_definitions_replace_built_in_ones_and_a_bad_file_is_skipped(
    tmp_path: Path,
) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".tau" / "agents").mkdir(parents=True)
    (project / ".claude" / "agents").mkdir(parents=True)
    (home / ".tau" / "agents" / "explorer.md").write_text("---\ndescription: mine\n---\nExplore my way.\n")
    (project / ".claude" / "agents" / "fixer.md").write_text("---\ndescription: fixes\n---\nFix it.\n")
    (project / ".claude" / "agents" / "broken.md").write_text("---\nname: a b\n---\nx\n")
    paths = TauPaths(home=home, tau_home=home / ".tau", cwd=project)
    warnings: list[str] = []
    untrusted = load_agents(agent_dirs(paths, project_trusted=False), warnings.append)
    assert set(untrusted) == {"general-purpose", "explorer"}
    assert untrusted["explorer"].description == "mine"
    trusted = load_agents(agent_dirs(paths, project_trusted=True), warnings.append)
    assert set(trusted) == {"general-purpose", "explorer", "fixer"}
    assert len(warnings) == 1 and "broken.md" in warnings[0] and "skipped" in warnings[0]

"""Representative inputs for the system prompt, shared by its tests and its golden files.

Regenerate the golden files after an intended wording change, then review the diff:
``python -m tests.coding.resources.prompt_cases``.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from tau_agent.tools import AgentTool, AgentToolResult
from tau_coding.resources.context_files import ContextFile
from tau_coding.resources.skill_files import Skill
from tau_coding.resources.system_prompt import build_system_prompt

GOLDEN = Path(__file__).parent / "golden"
CWD = Path("/home/user/project")
TODAY = date(2026, 11, 30)


async def _never(*args: Any) -> AgentToolResult:
    raise AssertionError("prompt tests never run tools")


def _tool(name: str, snippet: str, *guidelines: str) -> AgentTool:
    return AgentTool(
        name=name,
        description=f"The {name} tool.",
        parameters={"type": "object", "properties": {}},
        execute=_never,
        prompt_snippet=snippet,
        prompt_guidelines=guidelines,
    )


# The four default tools, with snippets and guidelines about as long as the real ones.
DEFAULT_TOOLS = (
    _tool(
        "read", "Read a file's contents, or a range of its lines", "Read files with read before editing them."
    ),
    _tool(
        "write",
        "Create a file or overwrite one completely",
        "Use write only for new files or complete rewrites; use edit for changes.",
    ),
    _tool(
        "edit",
        "Replace exact text in a file",
        "Use edit for precise changes; the old text must match exactly, whitespace included.",
        "Several changes to one file go in one edit call.",
    ),
    _tool("bash", "Run a shell command in the working directory"),
)


def default_prompt() -> str:
    """The prompt of a session with the default tools and nothing configured."""
    return build_system_prompt(
        tools=DEFAULT_TOOLS, base_override=None, append=[], context_files=[], skills=[], cwd=CWD, today=TODAY
    )


def configured_prompt() -> str:
    """The prompt with an appended text, two context files and two skills (one hidden)."""
    skill_dir = Path("/home/user/.tau/skills/release")
    skills = [
        Skill("release", "Cut a release: bump the version, tag, write the changelog.", skill_dir / "SKILL.md",
              skill_dir, "user", "body"),
        Skill("secret", "Hidden from the model.", Path("/s/SKILL.md"), Path("/s"), "user", "body",
              disable_model_invocation=True),
    ]  # fmt: skip
    return build_system_prompt(
        tools=DEFAULT_TOOLS,
        base_override=None,
        append=["Answer in British English."],
        context_files=[
            ContextFile(Path("/home/user/.tau/AGENTS.md"), "Prefer small commits.\n"),
            ContextFile(CWD / "AGENTS.md", "Run `make test` before you finish.\n"),
        ],
        skills=skills,
        cwd=CWD,
        today=TODAY,
    )


CASES = {"default.txt": default_prompt, "configured.txt": configured_prompt}


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, make in CASES.items():
        (GOLDEN / name).write_text(make(), encoding="utf-8")
        print(f"wrote {GOLDEN / name}")


if __name__ == "__main__":
    regenerate()

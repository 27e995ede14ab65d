"""One skill file: its frontmatter checked against the Agent Skills specification (agentskills.io).

Rules, and what breaking each one costs:

- ``description`` is required, non-empty: without it the skill is not loaded (error);
- ``description`` at most 1024 characters, ``compatibility`` 1-500, ``name`` 1-64 characters of
  ``[a-z0-9-]`` without a leading, trailing or doubled hyphen, equal to the skill's directory name
  (or file stem for a loose ``.md`` file): a warning, the skill is still loaded;
- a missing ``name`` falls back to that directory name or stem, with a warning;
- ``metadata`` must be a map of strings, ``allowed-tools`` a space-separated string or a list,
  ``disable-model-invocation`` ``true`` or ``false``: otherwise a warning and the field is ignored;
- frontmatter that does not parse: not loaded (error).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeAlias

from tau_coding.common.diagnostics import Diagnostic
from tau_coding.resources.frontmatter import (
    FrontmatterError,
    FrontmatterValue,
    parse_frontmatter,
    split_frontmatter,
)

SkillSource: TypeAlias = Literal["project", "user", "path"]  # "path": named by --skill or settings

SKILL_FILE = "SKILL.md"
MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500

_NAME_CHARS = re.compile(r"[a-z0-9-]+")

_Warn: TypeAlias = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Skill:
    """A loaded skill. ``body`` is the file's text after the frontmatter.

    ``disable_model_invocation`` keeps the skill out of the system prompt; the user can still
    invoke it with ``/skill:name``.
    """

    name: str
    description: str
    file_path: Path
    base_dir: Path
    source: SkillSource
    body: str
    disable_model_invocation: bool = False
    license: str | None = None
    compatibility: str | None = None
    allowed_tools: tuple[str, ...] = ()
    metadata: dict[str, str] = field(default_factory=dict)


def expected_skill_name(path: Path) -> str:
    """The name a skill at ``path`` should have: its directory's name, or a loose file's stem."""
    return path.parent.name if path.name == SKILL_FILE else path.stem


def validate_name(name: str, expected: str) -> list[str]:
    """Every way ``name`` breaks the specification's naming rules, as messages (empty if none)."""
    problems: list[str] = []
    if len(name) > MAX_NAME:
        problems.append(f"name is {len(name)} characters, more than {MAX_NAME}")
    if not _NAME_CHARS.fullmatch(name):
        problems.append(f"name {name!r} may use only lowercase letters a-z, digits and hyphens")
    if name.startswith("-") or name.endswith("-"):
        problems.append(f"name {name!r} must not start or end with a hyphen")
    if "--" in name:
        problems.append(f"name {name!r} must not contain consecutive hyphens")
    if name != expected:
        problems.append(f"name {name!r} does not match its directory name {expected!r}")
    return problems


def parse_skill(path: Path, text: str, source: SkillSource) -> tuple[Skill | None, list[Diagnostic]]:
    """Build a ``Skill`` from the text of the file at ``path``; ``None`` when it cannot be loaded."""
    where = str(path)
    diagnostics: list[Diagnostic] = []

    def warn(message: str) -> None:
        diagnostics.append(Diagnostic("warning", where, message))

    try:
        block, body = split_frontmatter(text)
        fields = parse_frontmatter(block) if block is not None else {}
    except FrontmatterError as exc:
        return None, [Diagnostic("error", where, f"bad frontmatter, skill not loaded: {exc}")]

    description = fields.get("description", "")
    if not isinstance(description, str) or not description.strip():
        return None, [Diagnostic("error", where, "skill has no 'description' in its frontmatter; not loaded")]
    description = description.strip()
    if len(description) > MAX_DESCRIPTION:
        warn(f"description is {len(description)} characters, more than {MAX_DESCRIPTION}")

    expected = expected_skill_name(path)
    name = fields.get("name", "")
    if not isinstance(name, str) or not name.strip():
        warn(f"skill has no 'name'; using {expected!r}")
        name = expected
    name = name.strip()
    for problem in validate_name(name, expected):
        warn(problem)

    compatibility = _optional_string(fields, "compatibility", warn)
    if compatibility is not None and not 1 <= len(compatibility) <= MAX_COMPATIBILITY:
        warn(f"compatibility must be 1-{MAX_COMPATIBILITY} characters, is {len(compatibility)}")

    skill = Skill(
        name=name,
        description=description,
        file_path=path,
        base_dir=path.parent,
        source=source,
        body=body,
        disable_model_invocation=_flag(fields, "disable-model-invocation", warn),
        license=_optional_string(fields, "license", warn),
        compatibility=compatibility,
        allowed_tools=_tools(fields, warn),
        metadata=_metadata(fields, warn),
    )
    return skill, diagnostics


def _optional_string(fields: dict[str, FrontmatterValue], key: str, warn: _Warn) -> str | None:
    value = fields.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        warn(f"{key!r} should be a string; ignored")
        return None
    return value.strip()


def _flag(fields: dict[str, FrontmatterValue], key: str, warn: _Warn) -> bool:
    value = fields.get(key)
    if value is None:
        return False
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    warn(f"{key!r} should be true or false; ignored")
    return False


def _tools(fields: dict[str, FrontmatterValue], warn: _Warn) -> tuple[str, ...]:
    value = fields.get("allowed-tools")
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, tuple):
        return value
    warn("'allowed-tools' should be a space-separated string or a list; ignored")
    return ()


def _metadata(fields: dict[str, FrontmatterValue], warn: _Warn) -> dict[str, str]:
    value = fields.get("metadata")
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return value
    warn("'metadata' should be a map of keys to strings; ignored")
    return {}

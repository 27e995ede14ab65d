"""Prompt templates: ``/name args`` expands to the text of ``prompts/name.md`` with the arguments.

Templates are the ``*.md`` files directly in ``TAU_HOME/prompts`` (user) and in the working
directory's ``.tau/prompts`` (project); a project template replaces a user one of the same name,
and either replaces one Tau ships (``builtin_prompts/``: ``/init``).
The description shown to the user is the frontmatter ``description``, else the body's first
non-empty line.

Arguments are split like a shell does it, tolerantly: whitespace separates, ``"..."`` and
``'...'`` group (an unclosed quote runs to the end), there are no escapes. In the body,
``$1`` ... ``$n`` are single arguments, ``$@`` and ``$ARGUMENTS`` all of them joined by spaces,
``${@:N}`` the arguments from the N-th on and ``${@:N:L}`` L of them; a missing argument is
empty. Substituted text is not scanned again. A body without any placeholder gets the arguments
appended on their own paragraph, so what the user typed is never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeAlias

from tau_coding.common.diagnostics import Diagnostic
from tau_coding.resources.frontmatter import (
    FrontmatterError,
    FrontmatterValue,
    parse_frontmatter,
    split_frontmatter,
)
from tau_coding.resources.text_files import read_resource_text

# "path": --prompt-template or settings; "builtin": shipped with Tau (builtin_prompts/)
TemplateSource: TypeAlias = Literal["project", "user", "path", "builtin"]
BUILTIN_PROMPTS = Path(__file__).resolve().parent / "builtin_prompts"

_COMMAND = re.compile(r"/([^\s/]+)(?:\s+(.*))?\Z", re.DOTALL)
_PLACEHOLDER = re.compile(r"\$\{@:(\d+)(?::(\d+))?\}|\$ARGUMENTS|\$@|\$([1-9][0-9]*)")
_MAX_DESCRIPTION = 120


@dataclass(frozen=True, slots=True)
class PromptTemplate:
    """A prompt template: the command name it is run by, its description and body, its file,
    and which kind of directory it came from."""

    name: str
    description: str
    body: str
    path: Path
    source: TemplateSource


def template_directories(cwd: Path, tau_home: Path) -> list[tuple[Path, TemplateSource]]:
    """Where templates live, lowest precedence first."""
    return [
        (BUILTIN_PROMPTS, "builtin"),
        (tau_home / "prompts", "user"),
        (cwd / ".tau" / "prompts", "project"),
    ]


def parse_template(path: Path, text: str, source: TemplateSource) -> tuple[PromptTemplate, list[Diagnostic]]:
    """A template from a file's text. Bad frontmatter is warned about and its fields ignored."""
    diagnostics: list[Diagnostic] = []
    fields: dict[str, FrontmatterValue] = {}
    try:
        block, body = split_frontmatter(text)
        if block is not None:
            fields = parse_frontmatter(block)
    except FrontmatterError as exc:
        diagnostics.append(Diagnostic("warning", str(path), f"bad frontmatter, fields ignored: {exc}"))
        body = _body_after_fence(text)
    value = fields.get("description")
    if isinstance(value, str) and value.strip():
        description = value.strip()
    else:
        description = next((line.strip() for line in body.splitlines() if line.strip()), "")
        if len(description) > _MAX_DESCRIPTION:
            description = description[: _MAX_DESCRIPTION - 1].rstrip() + "…"
    return PromptTemplate(path.stem, description, body, path, source), diagnostics


def load_prompt_templates(
    cwd: Path, tau_home: Path, *, extra: Sequence[Path] = (), discover: bool = True, builtin: bool = True
) -> tuple[list[PromptTemplate], list[Diagnostic]]:
    """Every template by name (project over user over Tau's own), sorted by name; problems as
    diagnostics.

    ``extra`` are files or folders named by ``--prompt-template`` or the ``prompts`` setting;
    they win over discovered ones of the same name. ``discover`` False skips the usual folders
    (Tau's own included); ``builtin`` False skips only Tau's own.
    """
    templates: dict[str, PromptTemplate] = {}
    diagnostics: list[Diagnostic] = []
    places: list[tuple[Path, TemplateSource]] = template_directories(cwd, tau_home) if discover else []
    if not builtin:
        places = [(directory, source) for directory, source in places if source != "builtin"]
    for extra_path in extra:
        if not extra_path.exists():
            diagnostics.append(Diagnostic("warning", str(extra_path), "no such prompt template"))
        else:
            places.append((extra_path, "path"))
    for directory, source in places:
        listed = [directory] if directory.is_file() else _markdown_files(directory, diagnostics)
        for path in listed:
            text, problems = read_resource_text(path)
            diagnostics += problems
            if text is None:
                continue
            template, problems = parse_template(path, text, source)
            diagnostics += problems
            templates[template.name] = template
    return [templates[name] for name in sorted(templates)], diagnostics


def parse_command_args(text: str) -> list[str]:
    """Split ``text`` into arguments, shell-like but never failing (see the module docstring)."""
    args: list[str] = []
    current: list[str] = []
    quote = ""
    in_arg = False
    for char in text:
        if quote:
            if char == quote:
                quote = ""
            else:
                current.append(char)
        elif char in "\"'":
            quote, in_arg = char, True
        elif char.isspace():
            if in_arg:
                args.append("".join(current))
                current, in_arg = [], False
        else:
            current.append(char)
            in_arg = True
    if in_arg:
        args.append("".join(current))
    return args


def substitute_args(body: str, args: Sequence[str]) -> str:
    """Replace the placeholders of ``body`` with ``args`` in one pass."""

    def replace(match: re.Match[str]) -> str:
        start, length, index = match.group(1), match.group(2), match.group(3)
        if index is not None:
            position = int(index) - 1
            return args[position] if position < len(args) else ""
        if start is not None:
            first = max(int(start), 1) - 1
            last = len(args) if length is None else first + int(length)
            return " ".join(args[first:last])
        return " ".join(args)

    return _PLACEHOLDER.sub(replace, body)


def expand_prompt_template(text: str, templates: Sequence[PromptTemplate]) -> str:
    """``/name args`` becomes the named template with its arguments; anything else is unchanged."""
    match = _COMMAND.match(text)
    if match is None:
        return text
    template = next((t for t in templates if t.name == match.group(1)), None)
    if template is None:
        return text
    raw_args = (match.group(2) or "").strip()
    args = parse_command_args(raw_args)
    if _PLACEHOLDER.search(template.body) is None:
        body = template.body.strip()
        return f"{body}\n\n{raw_args}" if raw_args else body
    return substitute_args(template.body, args).strip()


def _body_after_fence(text: str) -> str:
    """The text after a closing ``---`` line when there is one, else the whole text."""
    lines = text.split("\n")
    if lines and lines[0].rstrip() == "---":
        for index in range(1, len(lines)):
            if lines[index].rstrip() in ("---", "..."):
                return "\n".join(lines[index + 1 :])
    return text


def _markdown_files(directory: Path, diagnostics: list[Diagnostic]) -> list[Path]:
    try:
        if not directory.is_dir():
            return []
        return sorted(
            path
            for path in directory.iterdir()
            if path.suffix == ".md" and not path.name.startswith(".") and path.is_file()
        )
    except OSError as exc:
        diagnostics.append(
            Diagnostic("warning", str(directory), f"cannot list templates: {exc.strerror or exc}")
        )
        return []

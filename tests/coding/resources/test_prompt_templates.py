"""Prompt templates: discovery and override, argument splitting, every placeholder form."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_coding.resources.prompt_templates import (
    PromptTemplate,
    expand_prompt_template,
    load_prompt_templates,
    parse_command_args,
    substitute_args,
)


@pytest.mark.parametrize(
    ("text", "args"),
    [
        ("", []),
        ("   ", []),
        ("a b  c", ["a", "b", "c"]),
        ('"two words" x', ["two words", "x"]),
        ("'single quoted' x", ["single quoted", "x"]),
        ('say "it\'s" ok', ["say", "it's", "ok"]),
        ('pre"fix suf"fix', ["prefix suffix"]),
        ('""', [""]),
        ('a "" b', ["a", "", "b"]),
        ('unbalanced "quote runs on', ["unbalanced", "quote runs on"]),
        ("tab\tand\nnewline", ["tab", "and", "newline"]),
        ("back\\slash stays", ["back\\slash", "stays"]),
    ],
)
def test_args_split_like_a_tolerant_shell(text: str, args: list[str]) -> None:
    assert parse_command_args(text) == args


ARGS = ["one", "two words", "three", "four"]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("$1", "one"),
        ("$2|$4", "two words|four"),
        ("$5 missing", " missing"),
        ("$@", "one two words three four"),
        ("$ARGUMENTS", "one two words three four"),
        ("${@:2}", "two words three four"),
        ("${@:4}", "four"),
        ("${@:9}", ""),
        ("${@:2:2}", "two words three"),
        ("${@:3:10}", "three four"),
        ("${@:1:0}", ""),
        ("${@:0}", "one two words three four"),
        ("$0 stays", "$0 stays"),
        ("cost $ and $x stay", "cost $ and $x stay"),
        ("${@} stays", "${@} stays"),
        ("$10", ""),
        ("a$1b", "aoneb"),
    ],
)
def test_placeholders(body: str, expected: str) -> None:
    assert substitute_args(body, ARGS) == expected


def test_ten_or_more_args_are_addressable() -> None:
    args = [str(n) for n in range(1, 12)]
    assert substitute_args("$10 $11 $1", args) == "10 11 1"


def test_substituted_text_is_not_substituted_again() -> None:
    assert substitute_args("$1 $2", ["$2", "x"]) == "$2 x"
    assert substitute_args("$@", ["${@:1}", "$ARGUMENTS"]) == "${@:1} $ARGUMENTS"


def template(name: str, body: str) -> PromptTemplate:
    return PromptTemplate(name, "", body, Path(f"/p/{name}.md"), "user")


TEMPLATES = [
    template("review", "Review $1 focusing on ${@:2}."),
    template("plain", "Summarise the diff.\n"),
    template("all", "Args: $ARGUMENTS"),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "/review src/app.py security 'error handling'",
            "Review src/app.py focusing on security error handling.",
        ),
        ("/review", "Review  focusing on ."),
        ('/all "a b" c', "Args: a b c"),
        ("/all\nmulti\nline", "Args: multi line"),
        ("/plain", "Summarise the diff."),
        ("/plain and the tests", "Summarise the diff.\n\nand the tests"),
        ("/unknown x", "/unknown x"),
        ("review x", "review x"),
        (" /review x", " /review x"),
        ("/skill:review x", "/skill:review x"),
        ("/review/x", "/review/x"),
    ],
)
def test_expansion(text: str, expected: str) -> None:
    assert expand_prompt_template(text, TEMPLATES) == expected


def write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)


def test_project_templates_override_user_ones_by_name(tmp_path: Path) -> None:
    tau_home, cwd = tmp_path / "tau", tmp_path / "proj"
    write(tau_home / "prompts" / "fix.md", "user fix\n")
    write(tau_home / "prompts" / "only-user.md", "---\ndescription: From home\n---\nbody\n")
    write(cwd / ".tau" / "prompts" / "fix.md", "project fix\n")
    write(cwd / ".tau" / "prompts" / "nested" / "deep.md", "not loaded\n")
    write(cwd / ".tau" / "prompts" / "notes.txt", "not markdown\n")
    write(cwd / ".tau" / "prompts" / ".hidden.md", "hidden\n")
    write(tau_home / "prompts" / "init.md", "my own init\n")
    templates, diagnostics = load_prompt_templates(cwd, tau_home)
    assert diagnostics == []
    assert [(t.name, t.source, t.description) for t in templates] == [
        ("fix", "project", "project fix"),
        ("init", "user", "my own init"),  # replaces the one Tau ships
        ("only-user", "user", "From home"),
    ]


def test_tau_ships_an_init_template_that_asks_for_agents_md(tmp_path: Path) -> None:
    templates, diagnostics = load_prompt_templates(tmp_path, tmp_path / "tau")
    assert diagnostics == [] and [(t.name, t.source) for t in templates] == [("init", "builtin")]
    expanded = expand_prompt_template("/init focus on the tests", templates)
    assert "AGENTS.md" in expanded and expanded.endswith("\n\nfocus on the tests")
    assert load_prompt_templates(tmp_path, tmp_path / "tau", discover=False)[0] == []


@pytest.mark.parametrize(
    ("text", "description", "body"),
    [
        ("---\ndescription: Explain code\n---\nExplain $1\n", "Explain code", "Explain $1\n"),
        ("\n\n  First line here  \nsecond\n", "First line here", "\n\n  First line here  \nsecond\n"),
        ("---\nargument-hint: x\n---\n\nUse me\n", "Use me", "\nUse me\n"),
        ("", "", ""),
        ("x" * 300, "x" * 119 + "…", "x" * 300),
    ],
)
def test_description_from_frontmatter_else_first_line(
    tmp_path: Path, text: str, description: str, body: str
) -> None:
    write(tmp_path / "tau" / "prompts" / "t.md", text)
    (loaded,), diagnostics = load_prompt_templates(tmp_path, tmp_path / "tau", builtin=False)
    assert diagnostics == [] and (loaded.description, loaded.body) == (description, body)


def test_malformed_templates_give_diagnostics_not_crashes(tmp_path: Path) -> None:
    prompts = tmp_path / "tau" / "prompts"
    write(prompts / "bad-yaml.md", "---\ndescription: a: b\n---\nStill usable $1\n")
    write(prompts / "unclosed.md", "---\ndescription: never closed\nbody\n")
    write(prompts / "binary.md", b"\x00\xff\x00")
    write(prompts / "latin.md", b"Caf\xe9 $1\n")
    templates, diagnostics = load_prompt_templates(tmp_path, tmp_path / "tau", builtin=False)
    by_name = {t.name: t for t in templates}
    assert sorted(by_name) == ["bad-yaml", "latin", "unclosed"]
    assert by_name["bad-yaml"].body == "Still usable $1\n"
    assert by_name["bad-yaml"].description == "Still usable $1"
    assert by_name["unclosed"].body.startswith("---\n")
    assert expand_prompt_template("/latin x", templates) == "Caf\ufffd x"
    assert [(d.severity, Path(d.source).name) for d in diagnostics] == [
        ("warning", "bad-yaml.md"),
        ("error", "binary.md"),
        ("warning", "latin.md"),
        ("warning", "unclosed.md"),
    ]

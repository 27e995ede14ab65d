"""Skills: validation against the Agent Skills spec, discovery order, prompt block, /skill: expansion.

Validation is table-driven from ``fixtures/skills/<case>/``: each case folder is a skills
directory, and its ``expected.json`` lists the skills that load (in order) and every diagnostic
as ``[severity, path relative to the case folder, text the message contains]``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_coding.resources.skill_files import Skill, parse_skill, validate_name
from tau_coding.resources.skills import (
    expand_skill_command,
    find_skill_files,
    format_skills_for_prompt,
    load_skills,
    load_skills_from,
    skill_locations,
)

FIXTURES = Path(__file__).parent / "fixtures" / "skills"
CASES = sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())


def load_case(case: str) -> tuple[list[Skill], list[tuple[str, str, str]]]:
    root = FIXTURES / case
    files, problems = find_skill_files(root)
    skills, more = load_skills_from((path, "project") for path in files)
    found = [(d.severity, str(Path(d.source).relative_to(root)), d.message) for d in problems + more]
    return skills, found


@pytest.mark.parametrize("case", CASES)
def test_skill_fixture_loads_as_expected(case: str) -> None:
    expected = json.loads((FIXTURES / case / "expected.json").read_text())
    skills, diagnostics = load_case(case)
    assert [skill.name for skill in skills] == expected["loaded"]
    assert len(diagnostics) == len(expected["diagnostics"]), diagnostics
    for (severity, source, message), (want_severity, want_source, fragment) in zip(
        diagnostics, expected["diagnostics"], strict=True
    ):
        assert (severity, source) == (want_severity, want_source)
        assert fragment in message, message


def test_every_validation_case_has_a_fixture() -> None:
    assert len(CASES) >= 20
    assert all((FIXTURES / case / "expected.json").is_file() for case in CASES)


def test_valid_skill_keeps_every_spec_field() -> None:
    (skill,), _ = load_case("valid")
    assert (
        skill.description
        == (
            "Extract text and tables from PDF files and fill in PDF forms. Use when the user works with PDFs.\n"
        ).strip()
    )
    assert skill.license == "Apache-2.0"
    assert skill.compatibility == "Needs poppler-utils (pdftotext) on PATH"
    assert skill.metadata == {"author": "example-org", "version": "1.0"}
    assert skill.allowed_tools == ("Bash(pdftotext:*)", "Read")
    assert skill.base_dir == FIXTURES / "valid" / "pdf-tools"
    assert skill.body.startswith("# PDF tools\n")
    assert not skill.disable_model_invocation


def test_space_separated_allowed_tools_and_hidden_flag() -> None:
    (odd,), _ = load_case("field-types")
    assert odd.allowed_tools == ("Read", "Bash(git:*)")
    assert not odd.disable_model_invocation and odd.metadata == {}
    (hidden,), _ = load_case("hidden-from-model")
    assert hidden.disable_model_invocation


@pytest.mark.parametrize(
    ("name", "expected", "problems"),
    [
        ("pdf-tools", "pdf-tools", []),
        ("a", "a", []),
        ("x1-2y", "x1-2y", []),
        ("a" * 64, "a" * 64, []),
        ("a" * 65, "a" * 65, ["more than 64"]),
        ("Pdf", "Pdf", ["lowercase"]),
        ("é", "é", ["lowercase"]),
        ("a b", "a b", ["lowercase"]),
        ("-a", "-a", ["start or end"]),
        ("a-", "a-", ["start or end"]),
        ("a--b", "a--b", ["consecutive"]),
        ("good", "other", ["does not match"]),
        ("--", "--", ["start or end", "consecutive"]),
    ],
)
def test_name_rules(name: str, expected: str, problems: list[str]) -> None:
    found = validate_name(name, expected)
    assert len(found) == len(problems), found
    for message, fragment in zip(found, problems, strict=True):
        assert fragment in message


def test_loose_file_name_is_checked_against_its_stem(tmp_path: Path) -> None:
    path = tmp_path / "tidy.md"
    skill, diagnostics = parse_skill(path, "---\nname: messy\ndescription: d\n---\n", "user")
    assert skill is not None and skill.name == "messy"
    assert [d.message for d in diagnostics] == ["name 'messy' does not match its directory name 'tidy'"]


def make_skill(root: Path, name: str, description: str = "does things") -> Path:
    path = root / name / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n")
    return path


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Path]:
    """A home, a TAU_HOME, and a git repository with a nested working directory."""
    places = {
        "home": tmp_path / "home",
        "tau_home": tmp_path / "home" / ".tau",
        "outside": tmp_path / "home" / "work",
        "repo": tmp_path / "home" / "work" / "repo",
        "cwd": tmp_path / "home" / "work" / "repo" / "pkg" / "sub",
    }
    for path in places.values():
        path.mkdir(parents=True, exist_ok=True)
    (places["repo"] / ".git").mkdir()
    return places


def test_locations_go_from_cwd_up_to_the_git_root_then_user(world: dict[str, Path]) -> None:
    cwd, repo = world["cwd"], world["repo"]
    located = skill_locations(cwd, world["tau_home"], world["home"])
    assert located == [
        (cwd / ".tau/skills", "project"),
        (cwd / ".agents/skills", "project"),
        (cwd.parent / ".tau/skills", "project"),
        (cwd.parent / ".agents/skills", "project"),
        (repo / ".tau/skills", "project"),
        (repo / ".agents/skills", "project"),
        (world["tau_home"] / "skills", "user"),
        (world["home"] / ".agents/skills", "user"),
    ]


def test_without_a_git_root_only_the_working_directory_is_a_project(tmp_path: Path) -> None:
    cwd = tmp_path / "a" / "b"
    cwd.mkdir(parents=True)
    located = skill_locations(cwd, tmp_path / "tau", tmp_path / "home")
    assert [path for path, source in located if source == "project"] == [
        cwd / ".tau/skills",
        cwd / ".agents/skills",
    ]


def test_a_git_file_marks_a_worktree_root(tmp_path: Path) -> None:
    (tmp_path / "wt" / "deep").mkdir(parents=True)
    (tmp_path / "wt" / ".git").write_text("gitdir: /elsewhere\n")
    located = skill_locations(tmp_path / "wt" / "deep", tmp_path / "t", tmp_path / "h")
    assert (tmp_path / "wt" / ".agents/skills", "project") in located


def test_project_beats_user_and_nearer_beats_farther(world: dict[str, Path]) -> None:
    cwd, repo = world["cwd"], world["repo"]
    make_skill(world["tau_home"] / "skills", "shared", "from TAU_HOME")
    make_skill(world["home"] / ".agents/skills", "shared", "from ~/.agents")
    make_skill(world["home"] / ".agents/skills", "user-only", "only the user has it")
    make_skill(repo / ".agents/skills", "shared", "from the repo root")
    make_skill(repo / ".agents/skills", "repo-only", "only the repo has it")
    make_skill(cwd / ".tau/skills", "shared", "from the working directory")
    make_skill(world["outside"] / ".agents/skills", "outside", "above the git root")
    skills, diagnostics = load_skills(cwd, world["tau_home"], world["home"])
    by_name = {skill.name: skill for skill in skills}
    assert sorted(by_name) == ["repo-only", "shared", "user-only"]
    assert by_name["shared"].description == "from the working directory"
    assert by_name["shared"].source == "project" and by_name["user-only"].source == "user"
    collisions = [d for d in diagnostics if "already used" in d.message]
    assert len(collisions) == 3 and all(d.severity == "warning" for d in collisions)


def test_the_same_directory_reached_twice_loads_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    make_skill(home / ".agents/skills", "once")
    (home / ".git").mkdir()
    skills, diagnostics = load_skills(home, home / ".tau", home)
    assert [skill.name for skill in skills] == ["once"] and diagnostics == []
    assert skills[0].source == "project"


def test_symlink_loops_do_not_hang(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    make_skill(root, "real")
    (root / "loop").mkdir()
    (root / "loop" / "back").symlink_to(root, target_is_directory=True)
    files, diagnostics = find_skill_files(root)
    assert files == [root / "real" / "SKILL.md"] and diagnostics == []


def test_missing_skills_directory_is_quietly_empty(tmp_path: Path) -> None:
    assert find_skill_files(tmp_path / "nope") == ([], [])


def skill(name: str, description: str = "d", hidden: bool = False, body: str = "Do it.\n") -> Skill:
    path = Path("/skills") / name / "SKILL.md"
    return Skill(name, description, path, path.parent, "user", body, disable_model_invocation=hidden)


def test_prompt_block_lists_visible_skills_with_escaped_fields() -> None:
    text = format_skills_for_prompt([skill("a", 'Use for <xml> & "quotes"'), skill("b", hidden=True)])
    assert "<available_skills>" in text and text.endswith("</available_skills>")
    assert "<name>a</name>" in text and "<name>b</name>" not in text
    assert "<description>Use for &lt;xml&gt; &amp; &quot;quotes&quot;</description>" in text
    assert "<location>/skills/a/SKILL.md</location>" in text
    assert "read" in text


def test_prompt_block_is_empty_when_nothing_is_visible() -> None:
    assert format_skills_for_prompt([]) == ""
    assert format_skills_for_prompt([skill("b", hidden=True)]) == ""


@pytest.mark.parametrize(
    ("text", "expected_tail"),
    [
        ("/skill:fix", "</skill>"),
        ("/skill:fix the login page", "</skill>\n\nthe login page"),
        ("/skill:fix\nline one\nline two", "</skill>\n\nline one\nline two"),
        ("/skill:fix   padded  ", "</skill>\n\npadded"),
    ],
)
def test_skill_command_inlines_the_body_then_the_args(text: str, expected_tail: str) -> None:
    expanded = expand_skill_command(text, [skill("fix", body="\nStep 1.\n")])
    assert expanded.startswith('<skill name="fix" location="/skills/fix/SKILL.md">\n')
    assert "relative to /skills/fix." in expanded
    assert "\n\nStep 1.\n</skill>" in expanded
    assert expanded.endswith(expected_tail)


@pytest.mark.parametrize("text", ["/skill:nope args", "/skill:", "please /skill:fix", "/fix", "skill:fix"])
def test_non_matching_skill_commands_are_left_alone(text: str) -> None:
    assert expand_skill_command(text, [skill("fix")]) == text


def test_hidden_skills_can_still_be_invoked() -> None:
    assert expand_skill_command("/skill:manual", [skill("manual", hidden=True)]).startswith("<skill")

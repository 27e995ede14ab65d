"""Issue 25's examples in a real session with the headless UI (print mode and the SDK): the
theme switcher, snippets and working words, bookmarks and branches, the parrot provider."""

from __future__ import annotations

import json
from pathlib import Path

from tau_agent.session.entries import LabelEntry
from tau_coding.extensions.control_link import attach_control
from tau_coding.session.control import SessionControl
from tau_coding.session.events import InputHandledEvent, SessionEvent
from tests.coding.extensions.helpers import Rig, fake, make_rig
from tests.e2e.scripted_project import Project

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "extensions"


def _answer(events: list[SessionEvent]) -> str | None:
    handled = [e for e in events if isinstance(e, InputHandledEvent)]
    assert handled, "the command was not handled"
    return handled[-1].text


def _controlled(rig: Rig, tmp_path: Path) -> SessionControl:
    from tau_coding.session.store.manager import SessionManager

    control = SessionControl(rig.session, SessionManager(tmp_path / "sessions", str(tmp_path)))
    attach_control(control)
    return control


async def test_theme_switcher_is_told_print_mode_has_no_themes(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("ok"), [EXAMPLES / "theme_switcher.py"])
    assert _answer(await rig.run("/flip-theme light")) == "theme unchanged: UI not available"
    assert _answer(await rig.run("/sunset")) == "theme unchanged: UI not available"


async def test_working_words_keeps_the_message_for_the_run_and_pastes_snippets(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("ok"), [EXAMPLES / "working_words.py"])
    seen: list[str | None] = []
    rig.session.subscribe(
        lambda event: seen.append(rig.ui.working_message) if event.type == "turn_start" else None
    )
    await rig.run("hello")
    assert seen == ["reading the code…"] and rig.ui.working_message is None  # agent_end cleared it
    assert _answer(await rig.run("/snippet review")) is None
    await rig.run("/snippet explain")
    assert (
        rig.ui.editor_text
        == "Review the last change for bugs and missing tests.Explain what this code does, step by step:"
    )
    assert _answer(await rig.run("/snippet nope")) == "snippets: review, explain"
    assert _answer(await rig.run("/cheatsheet")) is None
    assert any("custom 'overlay' needs a person" in w for w in rig.warnings)


async def test_bookmark_writes_a_label_entry_and_clears_it(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("answer"), [EXAMPLES / "branch_here.py"])
    assert _answer(await rig.run("/bookmark start")) == "nothing to bookmark yet"
    await rig.run("question")
    leaf = rig.session.log.leaf_id
    assert _answer(await rig.run("/bookmark start")) == "bookmarked: start"
    assert rig.session.log.labels == {leaf: "start"}
    await rig.run("/bookmark")
    assert rig.session.log.labels == {}
    labels = [e for e in rig.session.log.entries if isinstance(e, LabelEntry)]
    assert [(e.target_id, e.label) for e in labels] == [(leaf, "start"), (leaf, None)]


async def test_branch_here_without_a_session_control_says_it_cannot(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("answer"), [EXAMPLES / "branch_here.py"])
    await rig.run("question")
    answer = _answer(await rig.run("/branch-here"))
    assert answer is not None and "no session control" in answer


async def test_branch_here_forks_through_the_control_and_tells_the_frontend(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("answer"), [EXAMPLES / "branch_here.py"])
    control = _controlled(rig, tmp_path)
    told: list[tuple[str, str | None]] = []
    control.outside_change.append(lambda change: told.append((change.kind, change.editor_text)))
    await rig.run("question")
    first = rig.session.session_file
    assert first is not None
    assert _answer(await rig.run("/branch-here mark")) == f"branched into a new session (from {first.name})"
    assert rig.session.session_file != first and told == [("clone", None)]
    assert [type(m).__name__ for m in rig.session.messages] == ["UserMessage", "AssistantMessage"]
    header = json.loads(first.read_text().splitlines()[0])
    assert header["type"] == "session"


async def test_parrot_off_moves_the_session_to_another_model_with_one_line(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("ok"), [EXAMPLES / "provider_toggle.py"])
    parrot = rig.host.registry.providers["parrot"].models[0]
    first = rig.session.model
    rig.host.list_models = lambda: [first, *rig.host.extension_models()]
    rig.session.set_model(parrot)
    assert parrot in rig.host.models()
    assert _answer(await rig.run("/parrot off")) == "parrot provider removed"
    assert "parrot" not in rig.host.registry.providers and parrot not in rig.host.models()
    assert rig.session.model == first
    lines = [w for w in rig.warnings if "removed provider 'parrot'" in w]
    assert lines == [
        "extension provider_toggle: removed provider 'parrot'; the model is now fake/fake-model (was parrot/parrot-1)"
    ]
    assert _answer(await rig.run("/parrot on")) == "parrot provider registered"
    assert parrot in rig.host.models()


async def test_nudge_without_a_session_control_waits_in_the_context(tmp_path: Path) -> None:
    provider = fake("ok")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "provider_toggle.py"])
    await rig.run("/nudge look again")
    assert [getattr(m, "custom_type", None) for m in rig.session.messages] == ["nudge"]
    assert provider.calls == 0  # nobody runs the model for it: it goes with the next prompt
    await rig.run("and?")
    assert provider.calls == 1


async def test_print_mode_answers_the_theme_command_from_a_real_process(tmp_path: Path) -> None:
    project = Project(tmp_path / "project", tmp_path / "home", "openai-completions")
    project.root.mkdir()
    result = await project.tau(
        "-e",
        str(EXAMPLES / "theme_switcher.py"),
        "-e",
        str(EXAMPLES / "provider_toggle.py"),
        "--model",
        "parrot/parrot-1",
        "-p",
        "/flip-theme light",
    )
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == "theme unchanged: UI not available"


async def test_print_mode_runs_the_turn_a_nudge_asks_for(tmp_path: Path) -> None:
    project = Project(tmp_path / "project", tmp_path / "home", "openai-completions")
    project.root.mkdir()
    example = str(EXAMPLES / "provider_toggle.py")
    result = await project.tau("-e", example, "--model", "parrot/parrot-1", "-p", "/nudge are you there")
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == "parrot: are you there"


async def test_sso_provider_offers_its_login_while_loaded(tmp_path: Path) -> None:
    from tau_coding.config.oauth.providers import login_providers

    rig = make_rig(tmp_path, fake("ok"), [EXAMPLES / "sso_provider.py"])
    spec = login_providers({})["corp"]
    assert (spec.name, spec.flow, spec.client_id) == ("Corp AI (SSO)", "pkce", "tau-corp-example")
    assert [m.id for m in rig.host.registry.providers["corp"].models] == ["corp-1"]
    rig.host.unload_all()
    assert "corp" not in login_providers({})

"""Extensions through the composition root: trust, -e, --no-extensions, flags, providers, payloads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_ai.testing.scripted_streams import ScriptedReply
from tau_coding.app.wiring import ConfigurationError, Options, build_session
from tau_coding.extensions.builtin_host import BuiltinHooks
from tau_coding.session.coding_session import CodingSession
from tests.coding.extensions.helpers import collect, write_extension
from tests.e2e.scripted_project import MODEL, Project, server

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "extensions"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, tmp_path / "home", "openai-completions")


def build(project: Project, warnings: list[str], **options: object) -> CodingSession:
    return build_session(
        Options(model=MODEL, no_session=True, **options),  # type: ignore[arg-type]
        project.env(),
        project.root,
        warn=warnings.append,
    )


async def finish(session: CodingSession) -> None:
    """Close the session and the HTTP client its provider opened (CodingSession leaves it to us)."""
    aclose = getattr(session.harness.provider, "aclose", None)
    if aclose is not None:
        await aclose()
    session.close()


MARKER_EXTENSION = """
    from pathlib import Path
    Path(__file__).with_suffix(".ran").write_text("imported")
    def activate(tau):
        tau.register_command("where", lambda args: "project extension")
"""


async def test_project_extensions_never_run_before_trust_and_trust_is_remembered(project: Project) -> None:
    project.configure("http://127.0.0.1:9")
    ext = write_extension(project.root / ".tau" / "extensions", "local", MARKER_EXTENSION)
    warnings: list[str] = []
    build(project, warnings).close()
    assert not ext.with_suffix(".ran").exists()
    assert any("not trusted" in w and "tau --trust-project" in w for w in warnings)

    build(project, [], trust_project=True).close()
    assert ext.with_suffix(".ran").exists()
    stored = json.loads((project.tau_home / "trusted-projects.json").read_text())
    assert str(project.root.resolve()) in stored["projects"]

    ext.with_suffix(".ran").unlink()
    later: list[str] = []
    session = build(project, later)
    events = await collect(session.prompt("/where"))
    session.close()
    assert ext.with_suffix(".ran").exists() and not any("not trusted" in w for w in later)
    assert getattr(events[0], "text", None) == "project extension"


async def test_project_hooks_do_not_run_before_trust(project: Project) -> None:
    marker = project.root / "hook-ran"
    settings = {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": f"touch {marker}"}]}]}}
    (project.root / ".tau").mkdir()
    (project.root / ".tau" / "settings.json").write_text(json.dumps(settings))
    async with server("openai-completions", [ScriptedReply(text="one"), ScriptedReply(text="two")]) as srv:
        project.configure(srv.url)
        warnings: list[str] = []
        session = build(project, warnings)
        assert isinstance(session.hooks, BuiltinHooks)  # only the built-in extension: nothing to run
        await collect(session.prompt("hi"))
        await finish(session)
        assert not marker.exists() and any("not trusted" in w for w in warnings)
        trusted = build(project, [], trust_project=True)
        await collect(trusted.prompt("hi"))
        await finish(trusted)
    assert marker.exists()


async def test_before_provider_request_replaces_the_payload_sent_over_http(project: Project) -> None:
    ext = write_extension(
        project.root / "x",
        "payload",
        """
        SEEN = []
        def activate(tau):
            @tau.on("before_provider_request")
            def cap(event):
                SEEN.append((event.provider, event.url))
                return {**event.payload, "max_tokens": 7, "metadata": {"via": "extension"}}
    """,
    )
    async with server("openai-completions", [ScriptedReply(text="fine")]) as srv:
        project.configure(srv.url)
        session = build(project, [], extensions=[str(ext)])
        await collect(session.prompt("hi"))
        await finish(session)
        body = srv.requests[0].json()
    assert body["max_tokens"] == 7 and body["metadata"] == {"via": "extension"}
    assert body["messages"][-1]["content"] == "hi"


async def test_no_extensions_skips_discovered_ones_but_keeps_dash_e(project: Project) -> None:
    project.configure("http://127.0.0.1:9")
    user = write_extension(project.tau_home / "extensions", "usr", MARKER_EXTENSION)
    cli = write_extension(project.root / "cli", "cli", MARKER_EXTENSION.replace("where", "cli"))
    build(project, [], no_extensions=True, extensions=[str(cli)]).close()
    assert cli.with_suffix(".ran").exists() and not user.with_suffix(".ran").exists()
    build(project, []).close()
    assert user.with_suffix(".ran").exists()


async def test_extension_flags_are_parsed_and_unknown_ones_refused(project: Project) -> None:
    project.configure("http://127.0.0.1:9")
    ext = write_extension(
        project.root / "x",
        "flags",
        """
        def activate(tau):
            tau.register_flag("plan", description="plan only")
            tau.register_flag("style", kind="str", default="terse")
            tau.register_command("flags", lambda args: f"{tau.flag('plan')} {tau.flag('style')}")
    """,
    )
    session = build(project, [], extensions=[str(ext)], extension_args=["--plan", "--style=chatty"])
    events = await collect(session.prompt("/flags"))
    session.close()
    assert getattr(events[0], "text", None) == "True chatty"
    with pytest.raises(ConfigurationError, match="unrecognized arguments: --nope"):
        build(project, [], extensions=[str(ext)], extension_args=["--nope"])


async def test_custom_provider_example_serves_its_model_without_a_key(project: Project) -> None:
    project.tau_home.mkdir(parents=True)
    session = build_session(
        Options(model="echo/echo-1", no_session=True, extensions=[str(EXAMPLES / "custom_provider.py")]),
        project.env(),
        project.root,
        warn=lambda m: None,
    )
    await collect(session.prompt("hello there"))
    session.close()
    assert session.model.provider == "echo"
    assert (
        session.messages[-1].role == "assistant"
        and getattr(session.messages[-1], "text", "") == "echo: hello there"
    )


async def test_a_provider_registered_with_a_wire_api_is_reached_over_http(project: Project) -> None:
    async with server("openai-completions", [ScriptedReply(text="via proxy")]) as srv:
        ext = write_extension(
            project.root / "x",
            "proxy",
            f"""
            from tau_ai.apis import wire_api
            from tau_ai.model import Model
            def activate(tau):
                model = Model(id="m1", api="openai-completions", provider="proxy", base_url={srv.url!r})
                tau.register_provider("proxy", wire=wire_api("openai-completions"), models=[model], api_key="proxy-key")
                tau.on("before_provider_request", lambda e: {{**e.payload, "user": e.provider + "/" + e.model}})
        """,
        )
        project.tau_home.mkdir(parents=True)
        session = build_session(
            Options(model="proxy/m1", no_session=True, extensions=[str(ext)]),
            project.env(),
            project.root,
            warn=print,
        )
        await collect(session.prompt("hi"))
        await finish(session)
        request = srv.requests[0]
    assert getattr(session.messages[-1], "text", "") == "via proxy"
    assert request.json()["user"] == "proxy/m1" and request.headers.get("authorization") == "Bearer proxy-key"

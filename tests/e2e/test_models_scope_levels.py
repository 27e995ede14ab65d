"""``--models`` with Pi's ``:level`` suffixes, against the real ``tau --mode rpc`` process: the
cycle goes through the scoped models only, each switching to its own thinking level."""

from __future__ import annotations

import json
from pathlib import Path

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.rpc_project import API, configure_two_models, make_project, start
from tests.e2e.scripted_project import server


async def test_cycle_model_applies_each_scoped_models_level(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="ok")]) as srv:
        configure_two_models(project, srv.url)
        # a third model the scope leaves out
        config = json.loads((project.tau_home / "models.json").read_text())
        config["providers"]["scripted"]["models"].append({"id": "left-out", "reasoning": True})
        (project.tau_home / "models.json").write_text(json.dumps(config))
        tau = await start(project, "--models", "scripted-model:high,second-model:low,no-such-model")
        first = await tau.request("cycle_model")
        assert (first["model"]["id"], first["thinkingLevel"], first["isScoped"]) == (
            "second-model",
            "off",
            True,
        )
        second = await tau.request("cycle_model")
        assert (second["model"]["id"], second["thinkingLevel"]) == ("scripted-model", "high")
        assert (await tau.request("cycle_model"))["model"]["id"] == "second-model"  # never left-out
        await tau.request("cycle_model")
        await tau.prompt_and_wait("hello")
        body = srv.requests[-1].json()
        assert body["model"] == "scripted-model" and body.get("reasoning_effort") == "high", body
        assert await tau.close() == 0
        assert 'no models match pattern "no-such-model"' in await tau.stderr_text()


async def test_enabled_models_setting_scopes_the_cycle_without_the_flag(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="ok")]) as srv:
        configure_two_models(project, srv.url)
        (project.tau_home / "settings.json").write_text(
            json.dumps({"enabledModels": ["scripted-model:medium"]})
        )
        tau = await start(project)
        assert await tau.request("cycle_model") is None  # one model in scope: nothing to cycle to
        assert await tau.close() == 0

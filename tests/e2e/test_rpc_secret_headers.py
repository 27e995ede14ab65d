"""RPC never hands out the request headers models.json gives a model: they hold secrets."""

from __future__ import annotations

import json
from pathlib import Path

from tau_ai.testing.scripted_streams import ScriptedReply
from tests.e2e.rpc_project import API, make_project, start
from tests.e2e.scripted_project import server

SECRET = "sk-secret-header-value-0123456789"


async def test_get_state_and_model_listings_carry_no_header_values(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    async with server(API, [ScriptedReply(text="ok")]) as srv:
        project.tau_home.mkdir(parents=True)
        provider = {
            "baseUrl": srv.url,
            "api": API,
            "apiKey": "test-key",
            "headers": {"X-Api-Token": SECRET},
            "models": [{"id": "scripted-model", "headers": {"Authorization": f"Bearer {SECRET}"}}],
        }
        (project.tau_home / "models.json").write_text(json.dumps({"providers": {"scripted": provider}}))
        async with await start(project) as tau:
            state = await tau.get_state()
            models = await tau.request("get_available_models")
            await tau.prompt_and_wait("hello")
        assert state["model"]["id"] == "scripted-model"
        assert SECRET not in json.dumps(state) and SECRET not in json.dumps(models)
        assert "headers" not in state["model"]
        assert SECRET in srv.requests[0].headers.get("authorization", "")  # still sent to the provider

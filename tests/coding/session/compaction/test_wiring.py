"""The composition root reads compaction.* settings and resolves compaction.model."""

from __future__ import annotations

import json
from pathlib import Path

from tau_coding.app.wiring import Options, build_session


def _home(tmp_path: Path, settings: dict[str, object]) -> dict[str, str]:
    tau_home = tmp_path / "home" / ".tau"
    tau_home.mkdir(parents=True)
    models = [{"id": "big", "contextWindow": 100_000}, {"id": "cheap", "contextWindow": 30_000}]
    provider = {"baseUrl": "http://127.0.0.1:9", "api": "openai-completions", "apiKey": "k", "models": models}
    (tau_home / "models.json").write_text(json.dumps({"providers": {"local": provider}}))
    (tau_home / "settings.json").write_text(json.dumps(settings))
    return {"HOME": str(tmp_path / "home"), "TAU_HOME": str(tau_home)}


def test_settings_reach_the_session_and_the_summary_model_is_resolved(tmp_path: Path) -> None:
    env = _home(
        tmp_path, {"compaction": {"reserveTokens": 8000, "keepRecentTokens": 5000, "model": "local/cheap"}}
    )
    warnings: list[str] = []
    session = build_session(Options(model="local/big", no_session=True), env, tmp_path, warn=warnings.append)
    compactor = session.compactor
    assert (compactor.settings.enabled, compactor.settings.reserve_tokens) == (True, 8000)
    assert compactor.settings.keep_recent_tokens == 5000
    assert compactor.summary_model is not None and compactor.summary_model.id == "cheap"
    assert compactor.summarizer().model.id == "cheap" and not warnings
    session.close()


def test_an_unknown_summary_model_is_a_warning_and_the_session_model_summarises(tmp_path: Path) -> None:
    env = _home(tmp_path, {"compaction": {"enabled": False, "model": "local/nope"}})
    warnings: list[str] = []
    session = build_session(Options(model="local/big", no_session=True), env, tmp_path, warn=warnings.append)
    assert session.compactor.summary_model is None and not session.compactor.settings.enabled
    assert len(warnings) == 1 and warnings[0].startswith("compaction.model:")
    assert session.compactor.summarizer().model.id == "big"
    assert session.harness.transform_context is None  # disabled: the loop keeps its fast path
    session.close()

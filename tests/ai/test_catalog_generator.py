"""scripts/regenerate_catalog.py turns the source's model facts into Tau's rows (no network, no node)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tau_ai.catalog.generated import DATA

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "regenerate_catalog.py"


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regenerate_catalog", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _facts(model_id: str, **over: Any) -> dict[str, Any]:
    facts: dict[str, Any] = {
        "id": model_id,
        "name": model_id.upper(),
        "api": "openai-completions",
        "baseUrl": "https://host.example/v1",
        "reasoning": True,
        "input": ["text", "image"],
        "cost": {"input": 1, "output": 2.5, "cacheRead": 0.1, "cacheWrite": 0},
        "contextWindow": 100_000,
        "maxTokens": 8_000,
    }
    return facts | over


def test_rows_keep_the_facts_and_only_the_extras_that_differ(generator: ModuleType) -> None:
    source = {
        "host": {
            "a": _facts("a"),
            "b": _facts("b"),
            "c": _facts("c", api="anthropic-messages", baseUrl="https://host.example", compat={"x": 1}),
        },
        "google-gemini-cli": {"g": _facts("g")},
    }
    out = generator.convert("9.9.9", source)
    assert out["source"] == "@mariozechner/pi-ai@9.9.9"
    assert out["pi_counts"] == {"google-gemini-cli": 1, "host": 3} and out["skipped"] == ["google-gemini-cli"]
    host = out["providers"]["host"]
    assert (host["api"], host["base_url"]) == ("openai-completions", "https://host.example/v1")
    assert host["models"][0] == ["a", "A", True, True, 100_000, 8_000, 1, 2.5, 0.1, 0]
    assert host["models"][2][10] == {
        "api": "anthropic-messages",
        "base_url": "https://host.example",
        "compat": {"x": 1},
    }
    assert "google-gemini-cli" not in out["providers"]
    assert json.loads(generator.render(out)) == out


def test_impossible_source_values_are_made_safe(generator: ModuleType) -> None:
    odd = _facts("auto", cost={"input": -1_000_000, "output": -1_000_000}, maxTokens=200_000)
    row = generator.row(odd, "openai-completions", "https://host.example/v1")
    assert row[5] == 100_000  # max output clamped to the window
    assert row[6:10] == [0, 0, 0, 0]  # "varies" (negative) recorded as unknown


def test_the_committed_file_is_what_the_renderer_writes(generator: ModuleType) -> None:
    committed = DATA.read_text(encoding="utf-8")
    assert generator.render(json.loads(committed)) == committed

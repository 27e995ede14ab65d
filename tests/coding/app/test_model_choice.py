"""Choosing a model from the whole catalogue: each provider's default, and models Tau cannot speak to yet."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tau_ai.catalog import builtin_models
from tau_ai.models_config import ModelsConfig
from tau_coding.app.model_choice import DEFAULT_MODELS, choose_model
from tau_coding.app.options import Options
from tau_coding.config.settings import Settings


def test_every_catalogue_provider_resolves_to_its_default_model() -> None:
    config = ModelsConfig(builtin_models(), {}, [])
    providers = {m.provider for m in config.models}
    assert providers <= set(DEFAULT_MODELS)
    for provider in providers:
        model, level = choose_model(Options(provider=provider), Settings(), config, lambda _: True)
        assert (model.provider, model.id, level) == (provider, DEFAULT_MODELS[provider], None)


def test_a_bedrock_model_without_aws_credentials_is_one_clear_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(TAU_HOME=str(tmp_path / "home"), HOME=str(tmp_path))
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tau_coding",
            "--no-session",
            "-p",
            "--model",
            "amazon-bedrock/amazon.nova-pro-v1:0",
            "hi",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=env,
    )
    assert out.returncode != 0 and out.stdout == ""
    assert out.stderr.count("\n") == 1, out.stderr
    assert "amazon-bedrock" in out.stderr and "AWS_PROFILE" in out.stderr, out.stderr

"""The precomputed catalogue table ``tau --list-models --all`` prints without a models.json."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tau_ai.catalog import builtin_models
from tau_coding.app.catalogue_list import models_file
from tau_coding.config.paths import TauPaths
from tau_coding.modes.list_models import list_models, print_rows, table_rows
from tau_coding.modes.list_models_table import builtin_rows

ROWS = builtin_rows()


def test_the_precomputed_rows_are_the_catalogues_rows() -> None:
    assert list(ROWS) == table_rows(builtin_models()), "run python scripts/regenerate_list_table.py"


def test_printing_the_precomputed_rows_prints_what_the_models_give() -> None:
    for search in ("", "son45", "bedrock opus", "no-such-model"):
        fast, full = io.StringIO(), io.StringIO()
        print_rows(search, ROWS, fast)
        list_models(search, builtin_models(), full, io.StringIO(), everything=True)
        assert fast.getvalue() == full.getvalue()


@pytest.mark.parametrize(
    "environ",
    [
        {"HOME": "/home/ann"},
        {"HOME": "/home/ann", "TAU_HOME": "/srv/tau"},
        {"HOME": "/home/ann", "TAU_HOME": "~/elsewhere"},
        {"HOME": "/home/ann", "TAU_HOME": ""},
    ],
)
def test_the_models_file_is_where_tau_paths_finds_it(environ: dict[str, str]) -> None:
    assert models_file(environ) == str(TauPaths.from_env(environ, Path("/tmp")).models_file)


def test_a_models_json_model_is_listed_with_the_catalogue(tmp_path: Path) -> None:
    home = tmp_path / ".tau"
    home.mkdir()
    (home / "models.json").write_text(
        '{"providers": {"lab": {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions",'
        ' "models": [{"id": "lab-model-7"}]}}}'
    )
    env = {**os.environ, "HOME": str(tmp_path), "TAU_HOME": str(home)}
    out = subprocess.run(
        [sys.executable, "-m", "tau_coding", "--list-models", "--all"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert any(line.split()[:2] == ["lab", "lab-model-7"] for line in out.stdout.splitlines())
    assert len(out.stdout.splitlines()) == len(ROWS) + 2  # the header, the catalogue, the lab model

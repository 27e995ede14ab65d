"""Fuzz settings.json and models.json as Tau reads them at start-up.

Documented: a malformed file or value is a one-line warning and the default is used
(settings.py); a bad models.json entry is skipped with one line naming it, the rest applies
(models_config.py); and the only error that may stop start-up is a ConfigurationError, one line
saying what to change (wiring.py). So whatever the two files hold, building a session either
works or raises ConfigurationError, and every warning is one line.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tau_agent.testing import FakeProvider
from tau_ai.models_config import load_models_config
from tau_coding.app.wiring import ConfigurationError, Options, build_session
from tau_coding.config.settings import SettingsFile, _declared, _field, load_settings


def _schema(struct: type[msgspec.Struct], prefix: str = "") -> dict[str, Any]:
    """Every dotted settings key -> the type its value must have, read from the structures."""
    out: dict[str, Any] = {}
    for name in _declared(struct):
        kind = _field(struct, name)
        if isinstance(kind, type) and issubclass(kind, msgspec.Struct):
            out.update(_schema(kind, f"{prefix}{name}."))
        else:
            out[prefix + name] = kind
    return out


_SCHEMA = _schema(SettingsFile)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
TOP_KEYS = sorted({key.split(".")[0] for key in _SCHEMA})
SUB_KEYS = sorted({key.split(".")[1] for key in _SCHEMA if "." in key} | {"timeoutMs"})
settings_objects = st.dictionaries(
    st.sampled_from(TOP_KEYS) | st.text(max_size=6),
    json_values | st.dictionaries(st.sampled_from(SUB_KEYS), json_values, max_size=4),
    max_size=6,
)
MODEL_KEYS = [
    "id",
    "name",
    "api",
    "baseUrl",
    "reasoning",
    "input",
    "contextWindow",
    "maxTokens",
    "cost",
    "headers",
]
models = st.dictionaries(st.sampled_from(MODEL_KEYS), json_values | st.just("m"), max_size=6)
providers = st.dictionaries(
    st.sampled_from(
        ["baseUrl", "api", "apiKey", "authHeader", "headers", "compat", "models", "modelOverrides"]
    ),
    json_values
    | st.lists(models, max_size=2)
    | st.sampled_from(["openai-completions", "http://127.0.0.1:9"]),
    max_size=6,
)
models_json = st.one_of(
    st.fixed_dictionaries(
        {"providers": st.dictionaries(st.sampled_from(["local", "openai", "x"]), providers)}
    ),
    json_values,
)
file_bytes = st.one_of(
    st.binary(max_size=60),
    settings_objects.map(lambda v: json.dumps(v).encode()),
)
GOOD_MODELS = {
    "providers": {
        "local": {
            "baseUrl": "http://127.0.0.1:9",
            "api": "openai-completions",
            "apiKey": "k",
            "models": [{"id": "m"}],
        }
    }
}


def build(root: Path, user: bytes, project: bytes, models: bytes) -> list[str]:
    home, cwd = root / "home", root / "project"
    (home / ".tau").mkdir(parents=True)
    (cwd / ".tau").mkdir(parents=True)
    (home / ".tau" / "settings.json").write_bytes(user)
    (cwd / ".tau" / "settings.json").write_bytes(project)
    (home / ".tau" / "models.json").write_bytes(models)
    warnings: list[str] = []
    environ = {"HOME": str(home), "TAU_HOME": str(home / ".tau")}
    try:
        session = build_session(
            Options(model="local/m", no_session=True),
            environ,
            cwd,
            warn=warnings.append,
            provider_factory=lambda model, key: FakeProvider(["ok"]),
        )
    except ConfigurationError as exc:
        warnings.append(str(exc))
    else:
        session.close()
    return warnings


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(file_bytes, file_bytes)
def test_any_settings_files_start_tau_with_one_line_warnings(user: bytes, project: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        warnings = build(Path(tmp), user, project, json.dumps(GOOD_MODELS).encode())
    assert all("\n" not in w for w in warnings), warnings


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models_json)
def test_any_models_json_starts_tau_or_says_in_one_line_what_to_change(data: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        warnings = build(Path(tmp), b"{}", b"{}", json.dumps(data).encode())
    assert all("\n" not in w for w in warnings), warnings


@settings(max_examples=300, deadline=None)
@given(models_json)
@example({"providers": {"local": {"baseUrl": None, "headers": {"\n": None}}}})  # found by this test
def test_the_models_json_loader_reports_every_bad_entry_and_never_raises(data: Any) -> None:
    config = load_models_config(data)
    assert all(isinstance(e, str) and "\n" not in e for e in config.errors)


@settings(max_examples=300, deadline=None)
@given(file_bytes)
def test_the_settings_loader_keeps_only_values_of_the_documented_types(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "settings.json"
        path.write_bytes(raw)
        loaded, diagnostics = load_settings(path, Path(tmp) / "none.json")
    for key, kind in _SCHEMA.items():
        value = loaded.get(key)
        if value is not None:
            msgspec.convert(value, kind)  # raises if a value of the wrong type got through
    assert all("\n" not in str(d) for d in diagnostics)

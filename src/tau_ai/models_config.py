"""The user's models.json, already parsed, turned into Model objects (pure; reads no file).

Pi's schema: ``{"providers": {NAME: {baseUrl, api, apiKey, authHeader, headers, compat,
models: [...], modelOverrides: {id: {...}}}}}``. Model entries take ``id`` (required), ``name``,
``api``, ``baseUrl``, ``reasoning``, ``input``, ``contextWindow``, ``maxTokens``, ``cost``
``{input, output, cacheRead, cacheWrite}``, ``headers`` and ``compat``. What a caller may rely on:

* Naming a built-in provider with only ``baseUrl``/``headers``/``compat`` re-routes all of its
  built-in models (a proxy); ``models`` add or replace models by id; ``modelOverrides``
  patch single built-in models field by field.
* A new provider needs a ``baseUrl`` and an ``api`` (on the provider or on each model).
* A bad entry is skipped with one clear line in ``errors`` naming where it is; everything
  valid is still used, so one typo never hides the rest of the file.
* Each provider, model entry and override is decoded on its own into msgspec structures
  (``_Fields``, ``_Provider``); a decoding error becomes that entry's one line.
* ``apiKey`` is passed on unresolved (an environment variable's name, a literal, or
  ``!command``): resolving it is the app's business.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeAlias, TypeVar, get_args

import msgspec
from msgspec import UNSET, Meta, UnsetType

from tau_ai.model import Model

# The wire APIs a models.json provider or model may name.
ApiName: TypeAlias = Literal[
    "openai-completions",
    "openai-responses",
    "openai-codex-responses",
    "anthropic-messages",
    "google-generative-ai",
    "google-gemini-cli",
    "mistral-conversations",
    "azure-openai-responses",
    "google-vertex",
    "anthropic-vertex",
    "bedrock-converse-stream",
]
API_NAMES: tuple[str, ...] = get_args(ApiName)

# None counts as absent, as in Pi; a present value must be the right kind.
Text = Annotated[str, Meta(pattern=r"\S")] | None | UnsetType
Count = Annotated[int, Meta(gt=0)] | None | UnsetType
Flag = bool | None | UnsetType
Price = Annotated[float, Meta(ge=0)] | None | UnsetType
Inputs = Annotated[list[Literal["text", "image"]], Meta(min_length=1)] | None | UnsetType


class ConfigError(ValueError):
    """One bad entry; the message says where (``providers.x.models[1].id``) and why."""


@dataclass(frozen=True, slots=True)
class ProviderConfig:
    """What models.json says about a provider besides its models."""

    name: str
    api_key: str | None = None
    auth_header: bool = False
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class ModelsConfig:
    """The models a user can name (the built-in ones with models.json merged in), the providers
    models.json configures, and what was wrong in it (reported as warnings, never fatal)."""

    models: list[Model]
    providers: dict[str, ProviderConfig]
    errors: list[str]


class _Cost(msgspec.Struct, rename="camel"):
    input: Price = UNSET
    output: Price = UNSET
    cache_read: Price = UNSET
    cache_write: Price = UNSET


class _Shared(msgspec.Struct, rename="camel"):
    """What a provider says for all of its models (and a model may say for itself)."""

    api: ApiName | UnsetType | None = UNSET
    base_url: Text = UNSET
    headers: dict[str, str] | UnsetType | None = UNSET
    compat: dict[str, Any] | UnsetType | None = UNSET


class _Fields(_Shared):
    """An override of a built-in model: the fields it replaces."""

    name: Text = UNSET
    reasoning: Flag = UNSET
    input: Inputs = UNSET
    context_window: Count = UNSET
    max_tokens: Count = UNSET
    cost: _Cost | UnsetType | None = UNSET


class _Entry(_Fields):
    """A model entry: an override or a new model, by id."""

    id: Text = UNSET


class _Provider(_Shared):
    api_key: Text = UNSET
    auth_header: Flag = UNSET
    models: list[Any] | UnsetType = UNSET  # entries are decoded one by one
    model_overrides: dict[str, Any] | UnsetType | None = UNSET


# What each field expects, as the error line says it; how the offending value is shown.
_EXPECTED: dict[str, tuple[str, Literal["kind", "repr"]]] = {
    "cost.*": ("a price of zero or more", "repr"),
    "contextWindow": ("a positive integer", "repr"),
    "maxTokens": ("a positive integer", "repr"),
    "reasoning": ("true or false", "repr"),
    "authHeader": ("true or false", "repr"),
    "input": ('a list of "text" and "image"', "repr"),
    "headers.*": ("a string", "kind"),
    "cost": ("an object", "kind"),
    "headers": ("an object", "kind"),
    "compat": ("an object", "kind"),
    "models": ("a list", "kind"),
    "modelOverrides": ("an object", "kind"),
}
_PATH = re.compile(r" - at `\$((?:\.[^.\[`]+|\[[^\]]*\])*)`$")

_S = TypeVar("_S", bound=_Shared)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), type(value).__name__ if value is not None else "null"
    )


def _obj(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: expected an object, got {_kind(value)}")
    return value


def _decode(data: Mapping[str, Any], kind: type[_S], where: str) -> _S:
    """``data`` as ``kind``; the first problem as a ConfigError in this module's words."""
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as exc:
        raise ConfigError(_explain(data, str(exc), where)) from None


def _explain(data: Mapping[str, Any], message: str, where: str) -> str:
    found = _PATH.search(message)
    steps = re.findall(r"\.([^.\[]+)|\[([^\]]*)\]", found.group(1)) if found else []
    key = steps[0][0] if steps else ""
    value = data.get(key)
    if key == "api" and isinstance(value, str) and value.strip():
        return f"{where}.api: unknown API {value!r}; expected one of {', '.join(API_NAMES)}"
    if key in ("cost", "headers") and len(steps) > 1 and isinstance(value, Mapping):
        if key == "headers":  # msgspec does not name the header: find it
            name, item = next((n, v) for n, v in value.items() if not isinstance(v, str))
        else:
            name = steps[1][0]
            item = value.get(name)
        expected, shown = _EXPECTED[f"{key}.*"]
        name = name if name.isprintable() else repr(name)  # the error stays one line
        return (
            f"{where}.{key}.{name}: expected {expected}, got {_kind(item) if shown == 'kind' else repr(item)}"
        )
    expected, shown = _EXPECTED.get(key, ("a non-empty string", "kind"))
    return f"{where}.{key}: expected {expected}, got {_kind(value) if shown == 'kind' else repr(value)}"


def _given(value: Any) -> bool:
    return value is not None and value is not UNSET


def _patch(model: Model, fields: _Shared) -> Model:
    """``model`` with every field ``fields`` names replaced."""
    named: list[tuple[str, object]] = [("base_url", fields.base_url), ("api", fields.api)]
    if isinstance(fields, _Fields):
        named += [
            ("name", fields.name),
            ("reasoning", fields.reasoning),
            ("context_window", fields.context_window),
            ("max_tokens", fields.max_tokens),
        ]
    changes: dict[str, Any] = {name: value for name, value in named if _given(value)}
    if isinstance(fields, _Fields) and isinstance(fields.input, list):
        changes["input"] = tuple(dict.fromkeys(fields.input))
    if isinstance(fields, _Fields) and isinstance(fields.cost, _Cost):
        cost = fields.cost
        quoted = (("input", cost.input), ("output", cost.output), ("cache_read", cost.cache_read))
        prices = {
            name: float(v)
            for name, v in (*quoted, ("cache_write", cost.cache_write))
            if v is not None and not isinstance(v, UnsetType)
        }
        changes["cost"] = dataclasses.replace(model.cost, **prices)
    if isinstance(fields.headers, dict) and fields.headers:
        changes["headers"] = {**model.headers, **fields.headers}
    if isinstance(fields.compat, dict) and fields.compat:
        changes["compat"] = {**model.compat, **fields.compat}
    return dataclasses.replace(model, **changes) if changes else model


def _provider(
    name: str, data: Mapping[str, Any], builtins: list[Model], errors: list[str]
) -> tuple[ProviderConfig, list[Model]]:
    where = f"providers.{name}"
    provider = _decode(data, _Provider, where)
    shared = _Shared(
        base_url=provider.base_url, api=provider.api, headers=provider.headers, compat=provider.compat
    )
    models = [_patch(m, shared) for m in builtins]
    overrides = provider.model_overrides if isinstance(provider.model_overrides, dict) else {}
    for model_id, patch in overrides.items():
        shown = model_id if model_id.isprintable() else repr(model_id)  # the error stays one line
        spot = f"{where}.modelOverrides.{shown}"
        index = next((i for i, m in enumerate(models) if m.id == model_id), None)
        try:
            if index is None:
                raise ConfigError(f"{spot}: {name} has no built-in model {model_id!r}")
            models[index] = _patch(models[index], _decode(_obj(patch, spot), _Fields, spot))
        except ConfigError as error:
            errors.append(str(error))
    entries = provider.models if isinstance(provider.models, list) else []
    if not builtins and not entries:
        raise ConfigError(f"{where}: not a built-in provider, so it needs a models list")
    for i, entry in enumerate(entries):
        spot = f"{where}.models[{i}]"
        try:
            fields = _decode(_obj(entry, spot), _Entry, spot)
            if not isinstance(fields.id, str):
                raise ConfigError(f"{spot}.id: every model needs an id")
            index = next((j for j, m in enumerate(models) if m.id == fields.id), None)
            template = builtins[0] if builtins else Model(id="", api="", provider=name, base_url="")
            start = (
                models[index]
                if index is not None
                else Model(fields.id, template.api, name, template.base_url)
            )
            model = _patch(_patch(start, shared), fields)
            if not model.base_url or not model.api:
                missing = "baseUrl" if not model.base_url else "api"
                raise ConfigError(
                    f"{spot}: no {missing} for {fields.id!r} (set it on the model or the provider)"
                )
            if index is None:
                models.append(model)
            else:
                models[index] = model
        except ConfigError as error:
            errors.append(str(error))
    api_key = provider.api_key if isinstance(provider.api_key, str) else None
    headers = provider.headers if isinstance(provider.headers, dict) else {}
    return ProviderConfig(name, api_key, provider.auth_header is True, headers), models


def load_models_config(data: Any, builtins: Sequence[Model] = ()) -> ModelsConfig:
    """Merge models.json's parsed content into ``builtins``; bad entries land in ``errors``."""
    errors: list[str] = []
    by_provider: dict[str, list[Model]] = {}
    for model in builtins:
        by_provider.setdefault(model.provider, []).append(model)
    providers: dict[str, ProviderConfig] = {}
    try:
        root = _obj(data, "models.json")
        section = root.get("providers", {})
        entries = _obj(section, "models.json: providers")
    except ConfigError as error:
        return ModelsConfig(list(builtins), {}, [str(error)])
    for name, entry in entries.items():
        try:
            config, models = _provider(
                name, _obj(entry, f"providers.{name}"), by_provider.get(name, []), errors
            )
        except ConfigError as error:
            errors.append(str(error))
            continue
        providers[name] = config
        by_provider[name] = models
    models = [model for group in by_provider.values() for model in group]
    return ModelsConfig(
        models, providers, [e if e.startswith("models.json") else f"models.json: {e}" for e in errors]
    )

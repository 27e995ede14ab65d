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
* ``apiKey`` is passed on unresolved (an environment variable's name, a literal, or
  ``!command``): resolving it is the app's business.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, get_args

from tau_ai.model import ApiName, Model, ModelCost

API_NAMES: tuple[str, ...] = get_args(ApiName)
_INPUTS = ("text", "image")


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
    models: list[Model]
    providers: dict[str, ProviderConfig]
    errors: list[str]


def _obj(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: expected an object, got {_kind(value)}")
    return value


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), type(value).__name__ if value is not None else "null"
    )


def _str(data: Mapping[str, Any], key: str, where: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}.{key}: expected a non-empty string, got {_kind(value)}")
    return value


def _api(data: Mapping[str, Any], where: str) -> str | None:
    api = _str(data, "api", where)
    if api is not None and api not in API_NAMES:
        raise ConfigError(f"{where}.api: unknown API {api!r}; expected one of {', '.join(API_NAMES)}")
    return api


def _int(data: Mapping[str, Any], key: str, where: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{where}.{key}: expected a positive integer, got {value!r}")
    return value


def _bool(data: Mapping[str, Any], key: str, where: str) -> bool | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise ConfigError(f"{where}.{key}: expected true or false, got {value!r}")
    return value


def _headers(data: Mapping[str, Any], where: str) -> dict[str, str]:
    value = data.get("headers")
    if value is None:
        return {}
    headers = _obj(value, f"{where}.headers")
    for name, item in headers.items():
        if not isinstance(item, str):
            raise ConfigError(f"{where}.headers.{name}: expected a string, got {_kind(item)}")
    return dict(headers)


def _compat(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    value = data.get("compat")
    return {} if value is None else dict(_obj(value, f"{where}.compat"))


def _input(data: Mapping[str, Any], where: str) -> tuple[str, ...] | None:
    value = data.get("input")
    if value is None:
        return None
    if not isinstance(value, list) or not value or any(item not in _INPUTS for item in value):
        raise ConfigError(f'{where}.input: expected a list of "text" and "image", got {value!r}')
    return tuple(dict.fromkeys(value))


def _cost(data: Mapping[str, Any], where: str, base: ModelCost) -> ModelCost:
    value = data.get("cost")
    if value is None:
        return base
    cost = _obj(value, f"{where}.cost")
    prices: dict[str, float] = {}
    for key, attr in (
        ("input", "input"),
        ("output", "output"),
        ("cacheRead", "cache_read"),
        ("cacheWrite", "cache_write"),
    ):
        price = cost.get(key)
        if price is None:
            continue
        if isinstance(price, bool) or not isinstance(price, int | float) or price < 0:
            raise ConfigError(f"{where}.cost.{key}: expected a price of zero or more, got {price!r}")
        prices[attr] = float(price)
    return dataclasses.replace(base, **prices)


def _patch(model: Model, data: Mapping[str, Any], where: str) -> Model:
    """``model`` with every field ``data`` names replaced (after checking each)."""
    changes: dict[str, Any] = {}
    for key, attr in (("name", "name"), ("baseUrl", "base_url")):
        text = _str(data, key, where)
        if text is not None:
            changes[attr] = text
    api = _api(data, where)
    if api is not None:
        changes["api"] = api
    reasoning = _bool(data, "reasoning", where)
    if reasoning is not None:
        changes["reasoning"] = reasoning
    inputs = _input(data, where)
    if inputs is not None:
        changes["input"] = inputs
    for key, attr in (("contextWindow", "context_window"), ("maxTokens", "max_tokens")):
        number = _int(data, key, where)
        if number is not None:
            changes[attr] = number
    changes["cost"] = _cost(data, where, model.cost)
    headers, compat = _headers(data, where), _compat(data, where)
    if headers:
        changes["headers"] = {**model.headers, **headers}
    if compat:
        changes["compat"] = {**model.compat, **compat}
    return dataclasses.replace(model, **changes)


def _provider(
    name: str, data: Mapping[str, Any], builtins: list[Model], errors: list[str]
) -> tuple[ProviderConfig, list[Model]]:
    where = f"providers.{name}"
    base_url, api = _str(data, "baseUrl", where), _api(data, where)
    headers, compat = _headers(data, where), _compat(data, where)
    api_key, auth_header = _str(data, "apiKey", where), bool(_bool(data, "authHeader", where))
    shared: dict[str, Any] = {k: v for k, v in (("baseUrl", base_url), ("api", api)) if v is not None}
    shared.update({k: v for k, v in (("headers", headers), ("compat", compat)) if v})
    models = [_patch(m, shared, where) for m in builtins]
    overrides = data.get("modelOverrides")
    if overrides is not None:
        for model_id, patch in _obj(overrides, f"{where}.modelOverrides").items():
            spot = f"{where}.modelOverrides.{model_id}"
            index = next((i for i, m in enumerate(models) if m.id == model_id), None)
            try:
                if index is None:
                    raise ConfigError(f"{spot}: {name} has no built-in model {model_id!r}")
                models[index] = _patch(models[index], _obj(patch, spot), spot)
            except ConfigError as error:
                errors.append(str(error))
    entries = data.get("models", [])
    if not isinstance(entries, list):
        raise ConfigError(f"{where}.models: expected a list, got {_kind(entries)}")
    if not builtins and not entries:
        raise ConfigError(f"{where}: not a built-in provider, so it needs a models list")
    for i, entry in enumerate(entries):
        spot = f"{where}.models[{i}]"
        try:
            item = _obj(entry, spot)
            new_id = _str(item, "id", spot)
            if new_id is None:
                raise ConfigError(f"{spot}.id: every model needs an id")
            index = next((j for j, m in enumerate(models) if m.id == new_id), None)
            template = builtins[0] if builtins else Model(id="", api="", provider=name, base_url="")
            start = (
                models[index] if index is not None else Model(new_id, template.api, name, template.base_url)
            )
            model = _patch(_patch(start, shared, where), item, spot)
            if not model.base_url or not model.api:
                missing = "baseUrl" if not model.base_url else "api"
                raise ConfigError(
                    f"{spot}: no {missing} for {new_id!r} (set it on the model or the provider)"
                )
            if index is None:
                models.append(model)
            else:
                models[index] = model
        except ConfigError as error:
            errors.append(str(error))
    return ProviderConfig(name, api_key, auth_header, headers), models


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

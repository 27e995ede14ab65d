"""Validate a tool call's arguments against its JSON Schema, with simple coercion.

Hand-written rather than the ``jsonschema`` package: that package does not coerce ("5" for
an integer), costs tens of milliseconds to import, and tool schemas use a small subset
(type, properties, required, additionalProperties, items, enum, const, anyOf/oneOf, bounds).
Unknown keywords are ignored, never fatal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

_INT = re.compile(r"[+-]?\d+")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_MISSING = object()


class ToolArgumentError(ValueError):
    """The arguments do not fit the schema; the message lists each problem by path."""


def validate_arguments(tool_name: str, schema: Mapping[str, Any], args: Any) -> dict[str, Any]:
    """Return the (coerced) arguments, or raise ToolArgumentError naming path and received value."""
    problems: list[str] = []
    value = _check(schema, args, "", problems)
    if problems:
        received = json.dumps(args, ensure_ascii=False, default=str)
        if len(received) > 500:
            received = received[:500] + "..."
        listed = "\n".join(f"  - {p}" for p in problems)
        raise ToolArgumentError(
            f'Validation failed for tool "{tool_name}":\n{listed}\n\nReceived arguments:\n{received}'
        )
    if not isinstance(value, dict):
        raise ToolArgumentError(f'Validation failed for tool "{tool_name}": arguments must be an object')
    return value


def _describe(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    if len(text) > 80:
        text = text[:77] + "..."
    kind = "null" if value is None else type(value).__name__
    return f"{text} ({kind})"


def _type_ok(kind: str, value: Any) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "null":
        return value is None
    return True


def _coerce(kind: str, value: Any) -> Any:
    """The value converted to ``kind`` if a plain reading allows it, else _MISSING."""
    if kind == "integer":
        if isinstance(value, str) and _INT.fullmatch(value.strip()):
            return int(value.strip())
        if isinstance(value, float) and value.is_integer():
            return int(value)
    elif kind == "number":
        if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
            number = float(value.strip())
            return (
                int(number)
                if number.is_integer() and "." not in value and "e" not in value.lower()
                else number
            )
    elif kind == "boolean":
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
    elif kind == "string":
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
    elif kind == "null" and value == "":
        return None
    elif kind in ("array", "object") and isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            return _MISSING
        if _type_ok(kind, parsed):
            return parsed
    return _MISSING


def _check(schema: Mapping[str, Any], value: Any, path: str, problems: list[str]) -> Any:
    where = path or "root"
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            for option in options:
                trial: list[str] = []
                result = _check(option, value, path, trial)
                if not trial:
                    return result
            problems.append(f"{where}: {_describe(value)} matches none of the allowed shapes")
            return value

    kinds = schema.get("type")
    if isinstance(kinds, str):
        kinds = [kinds]
    if isinstance(kinds, list) and kinds and not any(_type_ok(k, value) for k in kinds):
        for kind in kinds:
            coerced = _coerce(kind, value)
            if coerced is not _MISSING:
                value = coerced
                break
        else:
            problems.append(f"{where}: expected {' or '.join(kinds)}, received {_describe(value)}")
            return value

    if "const" in schema and value != schema["const"]:
        problems.append(f"{where}: must be {json.dumps(schema['const'])}, received {_describe(value)}")
    enum = schema.get("enum")
    if isinstance(enum, list) and value not in enum:
        allowed = ", ".join(json.dumps(v) for v in enum)
        problems.append(f"{where}: must be one of {allowed}, received {_describe(value)}")

    if isinstance(value, dict):
        return _check_object(schema, value, path, problems)
    if isinstance(value, list):
        items = schema.get("items")
        if isinstance(items, Mapping):
            value = [_check(items, item, f"{path}[{i}]", problems) for i, item in enumerate(value)]
        _bound(schema, "minItems", "maxItems", len(value), where, "items", problems)
    elif isinstance(value, str):
        _bound(schema, "minLength", "maxLength", len(value), where, "characters", problems)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            problems.append(f"{where}: must be >= {schema['minimum']}, received {value}")
        if "maximum" in schema and value > schema["maximum"]:
            problems.append(f"{where}: must be <= {schema['maximum']}, received {value}")
    return value


def _bound(
    schema: Mapping[str, Any], low: str, high: str, size: int, where: str, unit: str, problems: list[str]
) -> None:
    if low in schema and size < schema[low]:
        problems.append(f"{where}: must have at least {schema[low]} {unit}, has {size}")
    if high in schema and size > schema[high]:
        problems.append(f"{where}: must have at most {schema[high]} {unit}, has {size}")


def _check_object(
    schema: Mapping[str, Any], value: dict[str, Any], path: str, problems: list[str]
) -> dict[str, Any]:
    properties = schema.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    out = dict(value)
    for name in schema.get("required", ()) or ():
        if name not in value or (value[name] is None and not _allows_null(properties.get(name))):
            problems.append(f"{_join(path, name)}: required property is missing")
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        sub = properties.get(name)
        if isinstance(sub, Mapping):
            if item is None and name not in (schema.get("required") or ()):
                out.pop(name)  # an explicit null for an optional argument means "not given"
                continue
            out[name] = _check(sub, item, _join(path, name), problems)
        elif extra is False:
            problems.append(f"{_join(path, name)}: unknown property")
        elif isinstance(extra, Mapping):
            out[name] = _check(extra, item, _join(path, name), problems)
    return out


def _allows_null(schema: Any) -> bool:
    if not isinstance(schema, Mapping):
        return False
    kinds = schema.get("type")
    return kinds == "null" or (isinstance(kinds, list) and "null" in kinds)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name

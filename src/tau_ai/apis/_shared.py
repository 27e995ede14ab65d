"""Helpers every wire API shares: thinking levels, token limits, ids, usage and error text.

Pure functions only. Thinking levels follow Pi: ``minimal``..``high`` map to token budgets
1024/2048/8192/16384, ``xhigh`` exists only on the few models that accept it and is clamped
to ``high`` elsewhere, and a model without reasoning always gets ``off``.
"""

from __future__ import annotations

import hashlib
import json
from _json import encode_basestring_ascii, make_encoder
from typing import Any

import orjson

from tau_agent.content import ImageContent, TextContent
from tau_agent.messages import AssistantMessage, Usage
from tau_agent.provider import StreamOptions
from tau_ai.model import Model
from tau_ai.thinking import DEFAULT_MAX_OUTPUT as DEFAULT_MAX_TOKENS_CAP

ERROR_CAP = 500

# Wording the converters put into a conversation where an API cannot carry something as is.
IMAGE_NOTE = "Images from the tool result above:"
"""Leads the user message that carries a tool result's images, for APIs whose tool results hold text only."""
AFTER_TOOLS = "I have the tool results."
"""An assistant turn between tool results and a following user message, for APIs that need one."""
NO_IMAGES = "(image omitted: this model does not accept images)"
"""Stands in for an image sent to a model without image input."""


def max_output_tokens(model: Model, options: StreamOptions) -> int:
    """``options.max_tokens`` if given, else ``min(model.max_tokens, 32000)`` (Pi's default)."""
    if options.max_tokens is not None:
        return options.max_tokens
    return min(model.max_tokens, DEFAULT_MAX_TOKENS_CAP)


def same_model(message: AssistantMessage, model: Model) -> bool:
    """Signatures and opaque reasoning replay only to the model that produced them."""
    return message.provider == model.provider and message.api == model.api and message.model == model.id


def endpoint(base_url: str, path: str, version: str = "") -> str:
    """Join a base URL and an API path, adding ``/<version>`` unless the base already ends with it."""
    base = base_url.rstrip("/")
    if version and not base.endswith("/" + version):
        base = f"{base}/{version}"
    return f"{base}/{path.lstrip('/')}"


def data_url(image: ImageContent) -> str:
    return f"data:{image.mime_type};base64,{image.data}"


def images_of(blocks: list[TextContent | ImageContent]) -> list[ImageContent]:
    return [block for block in blocks if isinstance(block, ImageContent)]


# json.dumps builds a new C encoder for every call (most of its cost for a small object);
# this one is built once. No ``markers``: arguments are decoded JSON, which has no cycles.
_ENCODE = make_encoder(
    None, json.JSONEncoder().default, encode_basestring_ascii, None, ": ", ", ", False, False, True
)


def json_text(value: Any) -> str:
    """Exactly ``json.dumps(value)`` (default settings: ASCII, ``", "`` and ``": "``), for a
    value without reference cycles (a tool call's arguments): a converter writes one per call
    of a long history."""
    if type(value) is dict:  # the usual arguments: a few plain strings, written without the encoder
        pairs = []
        for key, item in value.items():
            if type(key) is not str or type(item) is not str or not (_plain(key) and _plain(item)):
                break
            pairs.append(f'"{key}": "{item}"')
        else:
            return "{" + ", ".join(pairs) + "}"
    return "".join(_ENCODE(value, 0))


def _plain(text: str) -> bool:
    """``text`` is written between quotes as it is: printable ASCII (space to ``~``) without
    a quote or backslash, which is exactly what ``json.dumps`` leaves unescaped."""
    return text.isascii() and text.isprintable() and '"' not in text and "\\" not in text


def short_id(seed: str, length: int, alphabet: str) -> str:
    """A deterministic id of ``length`` characters from ``alphabet`` (same seed, same id)."""
    number = int.from_bytes(hashlib.sha256(seed.encode("utf-8", "surrogatepass")).digest(), "big")
    chars = []
    for _ in range(length):
        number, rest = divmod(number, len(alphabet))
        chars.append(alphabet[rest])
    return "".join(chars)


def make_usage(
    *, input: int = 0, output: int = 0, cache_read: int = 0, cache_write: int = 0, reasoning: int = 0
) -> Usage:
    """A Usage whose total is the sum of its parts (Pi's convention); cost is left to the caller."""
    return Usage(
        input=max(input, 0),
        output=max(output, 0),
        cache_read=max(cache_read, 0),
        cache_write=max(cache_write, 0),
        reasoning=max(reasoning, 0),
        total_tokens=max(input, 0) + max(output, 0) + max(cache_read, 0) + max(cache_write, 0),
    )


def as_int(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def string(value: Any, default: str | None = None) -> str:
    """A string field of a provider event; ``default`` stands in for a missing (None) value.

    Anything else raises TypeError, which the parser base turns into an ``error`` end
    ("malformed event") before the builder is touched, so no non-string ever reaches a block.
    """
    if isinstance(value, str):
        return value
    if value is None and default is not None:
        return default
    raise TypeError(f"expected a string, got {type(value).__name__}")


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def load_object(data: str) -> dict[str, Any] | None:
    """The JSON object an SSE data field holds, or None when it is not one.

    orjson first (a third of the per-delta cost of the stdlib parser); the stdlib parser
    second, because orjson refuses lone UTF-16 surrogate escapes that models do emit.
    """
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        try:
            value = json.loads(data)
        except (ValueError, RecursionError):
            return None
    return value if type(value) is dict else None


def one_line(text: str, cap: int = ERROR_CAP) -> str:
    """Collapse whitespace to single spaces and cap the length, marking a cut with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= cap else flat[: cap - 1] + "…"


def message_in(value: Any) -> str | None:
    """The human message inside a provider's error value, searching the usual places."""
    if isinstance(value, str):
        return value or None
    if isinstance(value, list):
        for item in value:
            found = message_in(item)
            if found:
                return found
        return None
    if not isinstance(value, dict):
        return None
    for key in ("error", "message", "detail", "msg", "error_message"):
        if key in value:
            found = message_in(value[key])
            if found:
                return found
    return None


def error_from_body(status: int, body: bytes) -> str:
    """The provider's own message from an error body: one line, at most ~500 characters.

    JSON bodies are searched for ``error.message`` and its relatives; anything else is shown as
    text; an empty body says so with the status (overflow detection keys on that wording).
    """
    text = body.decode("utf-8", "replace").strip()
    if not text:
        return f"{status} status code (no body)"
    try:
        value = json.loads(text)
    except ValueError:
        return one_line(text)
    found = message_in(value)
    upstream = _upstream(value)
    if found and upstream and upstream not in found:
        found = f"{found} ({upstream})"
    return one_line(found if found else text)


def _upstream(value: Any) -> str | None:
    """OpenRouter's wrapped upstream error: ``error.metadata.raw`` (and its provider)."""
    metadata = as_dict(as_dict(as_dict(value).get("error")).get("metadata"))
    raw = metadata.get("raw")
    if not isinstance(raw, str) or not raw:
        return None
    name = metadata.get("provider_name")
    return f"{name}: {raw}" if isinstance(name, str) and name else raw

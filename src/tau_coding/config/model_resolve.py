"""Turn what the user typed (``--model``) into one Model and maybe a thinking level.

Accepted: ``provider/id``, ``id``, either with a ``:thinking`` suffix (off, minimal, low,
medium, high, xhigh), and fuzzy text matched against ids and names. Ids may themselves hold
``/`` and ``:`` (``openrouter``'s ``anthropic/claude-...``, Ollama's ``llama3:8b``), so a
suffix counts as a thinking level only when it is one, and a prefix as a provider only when
a provider has that name. Pure: the caller passes the available models.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tau_agent.provider import THINKING_LEVELS, ThinkingLevel
from tau_ai.model import Model


class ModelNotFoundError(ValueError):
    """No model matches; the message is one line and lists the closest candidates."""


@dataclass(frozen=True, slots=True)
class ResolvedModel:
    """The model a ``--model`` text named, and the thinking level its suffix named (None: none)."""

    model: Model
    thinking_level: ThinkingLevel | None = None


def _key(model: Model) -> str:
    return f"{model.provider}/{model.id}"


def resolve_model(
    spec: str, models: Sequence[Model], *, default_provider: str | None = None
) -> ResolvedModel:
    text = spec.strip()
    if not text:
        raise ModelNotFoundError("empty model name")
    level: ThinkingLevel | None = None
    head, sep, tail = text.rpartition(":")
    if sep and tail in THINKING_LEVELS:
        text, level = head, tail
    found = _find(text, models, default_provider)
    if found is None:
        raise ModelNotFoundError(_not_found(spec, models))
    return ResolvedModel(found, level)


def _find(text: str, models: Sequence[Model], default_provider: str | None) -> Model | None:
    providers = {m.provider for m in models}
    provider, sep, rest = text.partition("/")
    scoped = [m for m in models if m.provider == provider] if sep and provider in providers else None
    pool = scoped if scoped is not None else list(models)
    wanted = rest if scoped is not None else text

    exact = [m for m in pool if m.id == wanted]
    if exact:
        return _prefer(exact, default_provider)
    lowered = wanted.lower()
    for rank in (
        lambda m: m.id.lower() == lowered,
        lambda m: m.id.lower().startswith(lowered),
        lambda m: lowered in m.id.lower() or lowered in m.name.lower(),
    ):
        hits = [m for m in pool if rank(m)]
        if hits:
            return _prefer(hits, default_provider)
    return None


def _prefer(candidates: list[Model], default_provider: str | None) -> Model:
    """Prefer the default provider, then the shortest id (the plain model over its dated variants)."""
    return min(candidates, key=lambda m: (m.provider != default_provider, len(m.id), m.id))


def _not_found(spec: str, models: Sequence[Model]) -> str:
    import difflib  # here: only a name that matches nothing needs it

    keys = [_key(m) for m in models]
    close = difflib.get_close_matches(spec, keys, n=3, cutoff=0.4)
    if not close:
        ids = [m.id for m in models]
        close = [_key(models[ids.index(c)]) for c in difflib.get_close_matches(spec, ids, n=3, cutoff=0.4)]
    hint = f"; did you mean {', '.join(close)}?" if close else "; tau --list-models shows what is available"
    return f"unknown model {spec!r}{hint}"

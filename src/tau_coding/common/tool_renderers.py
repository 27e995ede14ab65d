"""How the TUI draws a tool that brought its own rendering (``tau.register_tool(..., render_call=,
render_result=)``).

The extension host publishes the renderers of the loaded extensions here whenever what they
registered changes (one session per TUI process); a tool row asks ``renderer_for(name)``.
``call(args)`` replaces the one-line summary after the tool's name; ``result(output, details,
is_error, expanded)`` replaces the output under it once the tool has finished. A renderer that
raises is ignored for that row (the default rendering is shown): the screen must not break
because an extension did.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

RenderCall = Callable[[Mapping[str, Any]], str]
RenderResult = Callable[[str, Any, bool, bool], str]


@dataclass(frozen=True, slots=True)
class ToolRenderer:
    call: RenderCall | None = None
    result: RenderResult | None = None


_renderers: dict[str, ToolRenderer] = {}


def publish(renderers: Mapping[str, ToolRenderer]) -> None:
    """From now on these are the tools drawn their own way (all others: the default)."""
    _renderers.clear()
    _renderers.update(renderers)


def renderer_for(name: str) -> ToolRenderer | None:
    return _renderers.get(name)


def rendered_call(name: str, args: Mapping[str, Any]) -> str | None:
    """The tool's own summary of its arguments, or None (no renderer, or it failed)."""
    renderer = _renderers.get(name)
    if renderer is None or renderer.call is None:
        return None
    try:
        return str(renderer.call(args))
    except Exception:  # an extension's bug: show the default summary instead
        return None


def rendered_result(name: str, output: str, details: Any, is_error: bool, expanded: bool) -> str | None:
    """The tool's own rendering of its result, or None (no renderer, or it failed)."""
    renderer = _renderers.get(name)
    if renderer is None or renderer.result is None:
        return None
    try:
        return str(renderer.result(output, details, is_error, expanded))
    except Exception:  # as above
        return None

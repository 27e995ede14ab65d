"""Workarounds for Textual keeping removed widgets' rendered lines alive.

Textual 8 memoises ``StylesCache.get_inner_outer`` with an ``lru_cache`` on the method, so
the cache's keys hold each widget's StylesCache, and through it the strips it rendered,
after the widget is gone (Textualize/textual#6665, open). Measured here: every /tree opened
and closed left about 2,000 objects behind, up to the cache's 1,024 entries. Clearing the
memo when a screen closes drops them; it only costs recomputing a few offsets on the next
paint. A Textual without that memo (fixed, or renamed) makes this a no-op.

Textual also keeps two things per container that outlive a removal of its children: the
list of its displayed children from the last time something asked for it (rebuilt only when
asked again: when a child's styles are next updated, which an idle app may never do), and
its last four arrangements (keyed by the children's count of changes, so an old one is
never asked for again, and dropped only by a later layout change of a child). Either holds
every removed child, and the lines it rendered, for as long as the app stays idle.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.widget import Widget


def release_style_caches() -> None:
    """Forget the memoised offsets that pin removed widgets' render caches."""
    try:
        from textual._styles_cache import StylesCache
    except ImportError:  # pragma: no cover - a Textual that moved the module
        return
    clear = getattr(getattr(StylesCache, "get_inner_outer", None), "cache_clear", None)
    if callable(clear):
        clear()


def release_removed_children(parent: Widget, removed: Iterable[Widget] = ()) -> None:
    """Let go of everything Textual still holds of ``parent``'s removed children.

    Call after the removal has been awaited, with every removed widget (descendants too,
    gathered before the removal: it empties their lists of children): they are then freed by
    reference counting at the next frame (which drops the screen's map of what it last drew),
    unless the caller keeps them. Costs nothing that frame would not do anyway: it lays the
    parent out again regardless.
    """
    _ = parent.displayed_children  # rebuilt from the live children: the stale list is dropped
    parent._clear_arrangement_cache()
    release_style_caches()
    for widget in removed:
        detach_styles(widget)


def detach_styles(widget: Widget) -> None:
    """Break the reference cycle between a removed ``widget`` and its styles.

    A widget's CSS and inline ``Styles`` each refer back to it (``Styles.node``), so a removed
    widget is garbage only the collector's full pass can find, and those passes grow rarer as
    a session's live objects grow: over a 1,000-request full-screen run some 100 trimmed views
    (their rendered lines, caches and layout) waited for one at any time, and the holes they
    left kept RSS 10-15 % up. Without the back references the widget goes when its last
    reference does. Only for a widget that is not mounted and never will be again: a style
    with no node applies to nothing.
    """
    widget._css_styles.node = None
    widget._inline_styles.node = None


__all__ = ["detach_styles", "release_removed_children", "release_style_caches"]

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


def release_removed_children(parent: Widget) -> None:
    """Let go of everything Textual still holds of ``parent``'s removed children.

    Call after the removal has been awaited: the removed widgets are then freed by the next
    frame (which drops the screen's map of what it last drew), unless the caller keeps them.
    Costs nothing that frame would not do anyway: it lays the parent out again regardless.
    """
    _ = parent.displayed_children  # rebuilt from the live children: the stale list is dropped
    parent._clear_arrangement_cache()
    release_style_caches()


__all__ = ["release_removed_children", "release_style_caches"]

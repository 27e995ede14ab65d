"""A workaround for Textual keeping every closed screen's rendered lines alive.

Textual 8 memoises ``StylesCache.get_inner_outer`` with an ``lru_cache`` on the method, so
the cache's keys hold each widget's StylesCache, and through it the strips it rendered,
after the widget is gone (Textualize/textual#6665, open). Measured here: every /tree opened
and closed left about 2,000 objects behind, up to the cache's 1,024 entries. Clearing the
memo when a screen closes drops them; it only costs recomputing a few offsets on the next
paint. A Textual without that memo (fixed, or renamed) makes this a no-op.
"""

from __future__ import annotations


def release_style_caches() -> None:
    """Forget the memoised offsets that pin removed widgets' render caches."""
    try:
        from textual._styles_cache import StylesCache
    except ImportError:  # pragma: no cover - a Textual that moved the module
        return
    clear = getattr(getattr(StylesCache, "get_inner_outer", None), "cache_clear", None)
    if callable(clear):
        clear()


__all__ = ["release_style_caches"]

"""The app's images: drawn below an item in the scrollback (inline) or as cells the terminal
fills with them (full-screen). Each drawer is imported with the first image, never at start."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from tau_coding.tui.items import Item, ToolItem, UserItem

if TYPE_CHECKING:
    from rich.console import RenderableType


class AppImages:
    """``settings``: the effective settings (``terminal.showImages``, ...); ``height``: the
    screen's rows; ``send``: raw bytes to the terminal; ``color_system``: Rich's, which decides
    how full-screen cells name their image."""

    def __init__(
        self,
        environ: Mapping[str, str],
        settings: Callable[[], Mapping[str, str]],
        height: Callable[[], int],
        send: Callable[[str], object],
        color_system: Callable[[], str | None],
    ) -> None:
        self._environ = environ
        self._settings = settings
        self._height = height
        self._send = send
        self._color_system = color_system
        self._draw: Callable[[Item, int, Mapping[str, str], int], str] | None = None
        self._cells: Callable[[Item, Mapping[str, str], int], RenderableType | None] | None = None

    def after(self, item: Item, width: int) -> str:
        """Inline: ``item``'s images, drawn below it in the scrollback where the terminal can."""
        if not isinstance(item, UserItem | ToolItem) or not item.images:
            return ""
        if self._draw is None:
            from tau_coding.tui.image_drawing import ImageDrawer

            self._draw = ImageDrawer(self._environ)
        return self._draw(item, width, self._settings(), self._height())

    def cells(self, item: Item) -> RenderableType | None:
        """Full-screen: ``item``'s images, as cells the terminal draws them in (screen_images.py)."""
        if not isinstance(item, UserItem | ToolItem) or not item.images:
            return None
        if self._cells is None:
            from tau_coding.tui.screen_images import ScreenImages

            self._cells = ScreenImages(self._environ, self._send, self._color_system()).cells
        return self._cells(item, self._settings(), self._height())

"""The transcript: a scrolling column of item views, mounted incrementally and in a window.

Only the newest ``WINDOW`` items of a loaded session are mounted at first; scrolling to the
top mounts the previous ``PAGE``. New items are appended without touching the others, and a
changed item is re-synced alone. While the view follows the newest item, a live run that
pushes the mounted count past ``WINDOW + PAGE`` unmounts the oldest views back down to
``WINDOW`` (scrolling up mounts them again): Textual lays out every child of the column on
each repaint, so without this cap the cost of a turn grew with the session. Every removal
(trimming, inline mode's scrollback, clearing) also lets go of what Textual still holds of the
removed views (style_cache.py): its memo of their rendered lines, which would otherwise keep
up to 1,024 dead views' lines alive and grow the process by ~10 MiB, and the column's list of
displayed children from the last frame, which would keep a window's worth of them alive
until some later frame (never, while idle); and each removed view's styles' references back
to it, which made every trimmed view garbage that only a full pass of the collector frees.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence

from rich.console import RenderableType
from textual import events
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Static

from tau_coding.tui.state import (
    AssistantItem,
    BashItem,
    Item,
    NoticeItem,
    ToolItem,
    UserItem,
)
from tau_coding.tui.style_cache import release_removed_children
from tau_coding.tui.widgets.assistant_view import AssistantView
from tau_coding.tui.widgets.notice_view import BashView, ErrorView, NoticeView
from tau_coding.tui.widgets.tool_row import ToolRow
from tau_coding.tui.widgets.user_view import UserView

WINDOW, PAGE = 40, 20  # 40 items fill any screen (each is a row or more); each mounted view costs every frame

ItemView = UserView | AssistantView | ToolRow | BashView | NoticeView | ErrorView
ImagesFor = Callable[[Item], RenderableType | None]  # an item's images, drawn (screen_images.py)


def view_for(item: Item, images: ImagesFor | None = None, thinking_hint: str | None = None) -> ItemView:
    if isinstance(item, UserItem):
        return UserView(item, images(item) if images is not None else None)
    if isinstance(item, AssistantItem):
        return AssistantView(item, thinking_hint)
    if isinstance(item, ToolItem):
        return ToolRow(item, images)
    if isinstance(item, BashItem):
        return BashView(item)
    if isinstance(item, NoticeItem):
        return NoticeView(item)
    return ErrorView(item)


def _with_descendants(views: Iterable[Widget]) -> list[Widget]:
    return [node for view in views for node in view.walk_children(Widget, with_self=True)]


class Transcript(VerticalScroll, can_focus=False):
    def __init__(self, images: ImagesFor | None = None) -> None:
        """``images``: what a user message or tool result shows of its images under its text
        (full-screen mode, where the terminal draws them); None: their placeholder lines only."""
        super().__init__(id="transcript")
        self._images = images
        self.thinking_hint: str | None = None  # what hidden thinking says (an extension's; None: Tau's)
        self._items: Sequence[Item] = ()
        self._views: dict[int, ItemView] = {}
        self._first = 0  # index of the first mounted item
        self._earlier = Static("", classes="earlier")
        self._loading = False
        self._user_scrolled = False

    def on_mount(self) -> None:
        self.anchor()

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        # A new line of a streamed answer grows what the transcript holds, not the transcript:
        # Textual would repaint every row of it (its background; the answer's rows are its
        # own) for the new scroll range. The scroll bar and the scroll position follow as
        # before (the compositor keeps an anchored view at the end); a scroll bar that appears
        # or goes changes the layout as it always does.
        same = size == self._size and container_size == self._container_size
        return super()._size_updated(size, virtual_size, container_size, layout and not same)

    @property
    def mounted_count(self) -> int:
        return len(self._views)

    def view(self, index: int) -> ItemView | None:
        return self._views.get(index)

    def views(self) -> Iterable[ItemView]:
        return self._views.values()

    async def append(self, items: Sequence[Item], new: range) -> None:
        """Mount views for ``items[new]``; the first call of a long session mounts only the tail."""
        self._items = items
        if not new:
            return
        start = new.start
        if not self._views and len(new) > WINDOW:
            start = new.stop - WINDOW
            self._first = start
            await self.mount(self._earlier)
            self._update_earlier()
        elif not self._views:
            self._first = start
        views = [view_for(items[i], self._images, self.thinking_hint) for i in range(start, new.stop)]
        self._views.update(zip(range(start, new.stop), views, strict=True))
        await self.mount_all(views)
        for view in views:
            if isinstance(view, AssistantView):
                await view.sync()
        await self._trim()

    async def _trim(self) -> None:
        """Unmount the oldest views beyond ``WINDOW + PAGE`` while the view is at the bottom."""
        if self._loading or len(self._views) <= WINDOW + PAGE or self.scroll_y < self.max_scroll_y - 1:
            return  # (loading: the user went up for the earlier page; trimming it would undo that)
        stop = max(self._views) + 1 - WINDOW
        old = [self._views.pop(i) for i in range(self._first, stop) if i in self._views]
        self._first = stop
        if self._earlier.parent is None:
            await self.mount(self._earlier, before=0)
        self._update_earlier()
        removed = _with_descendants(old)
        await self.remove_children(old)
        release_removed_children(self, removed)

    async def forget_before(self, stop: int) -> None:
        """Unmount the views of the items before ``stop`` (inline mode wrote them to the scrollback)."""
        old = [self._views.pop(i) for i in sorted(self._views) if i < stop]
        self._first = max(self._first, stop)
        if old:
            removed = _with_descendants(old)
            await self.remove_children(old)
            release_removed_children(self, removed)

    async def update(self, indices: Iterable[int]) -> None:
        """Re-sync the mounted views of changed items (unmounted ones render fresh when mounted)."""
        for index in sorted(indices):
            view = self._views.get(index)
            if view is not None:
                done = view.sync()
                if inspect.isawaitable(done):
                    await done

    async def load_earlier(self) -> int:
        """Mount the previous page of items above the first mounted one; returns how many."""
        if self._first == 0 or self._loading:
            return 0
        self._loading = True
        try:
            first = self._first
            start = max(0, first - PAGE)
            anchor_view = self._views[first]
            views = [view_for(self._items[i], self._images, self.thinking_hint) for i in range(start, first)]
            self._views.update(zip(range(start, first), views, strict=True))
            await self.mount_all(views, before=anchor_view)
            count, self._first = first - start, start
            self._update_earlier()
            self.call_after_refresh(self.scroll_to_widget, anchor_view, top=True, animate=False)
            return count
        finally:
            self._loading = False

    def _update_earlier(self) -> None:
        self._earlier.update(f"▲ {self._first} earlier items (scroll up to load)")
        self._earlier.display = self._first > 0

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if new_value <= 0 < old_value and self._first > 0 and self._user_scrolled and not self._loading:
            self.call_later(self.load_earlier)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        """Only the user reaching the top loads more (layout passes may pass through 0 too)."""
        self._user_scrolled = True
        if self.scroll_y <= 0 < self._first and not self._loading:
            self.call_later(self.load_earlier)

    def page(self, pages: float) -> None:
        """Scroll by ``pages`` screens (negative: up, towards older items)."""
        if pages < 0:
            self.release_anchor()  # the user is reading back: new output must not pull them down
            self._user_scrolled = True
        self.scroll_relative(y=pages * self.scrollable_content_region.height, animate=False)

    def to_top(self) -> None:
        """Scroll to the oldest mounted item (the top then loads the earlier ones)."""
        self.release_anchor()
        self._user_scrolled = True
        self.scroll_home(animate=False)

    def to_bottom(self) -> None:
        """Scroll to the newest item and follow new output again."""
        self.anchor()

    async def clear_all(self) -> None:
        removed = _with_descendants(self.children)
        await self.remove_children()
        release_removed_children(self, removed)
        self._views.clear()
        self._first = 0
        self._earlier = Static("", classes="earlier")

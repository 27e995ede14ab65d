"""UIBridge: how an extension talks to whoever is in front of the session.

The TUI, the RPC mode and print mode each provide one. Dialogs are async and return ``None``
(or ``False`` for ``confirm``) when the user cancels or nobody can answer; ``notify``,
``set_status`` and ``set_widget`` never block. ``HeadlessUI`` is the bridge of print mode and
of SDK use: there is nobody to ask, so every dialog answers its ``default`` at once and says
so in a one-line warning; notices go to the ``warn`` callable; status lines and widgets are
kept in plain dictionaries a caller (or a test) may read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, Protocol, TypeAlias

NoticeLevel: TypeAlias = Literal["info", "warning", "error"]


class UIBridge(Protocol):
    """What a frontend offers extensions. Every method must be safe to call at any time."""

    @property
    def interactive(self) -> bool:
        """Whether a person may answer dialogs (False: dialogs return their default)."""
        ...

    async def select(
        self, title: str, options: Sequence[str], *, default: str | None = None
    ) -> str | None: ...

    async def confirm(self, title: str, message: str = "", *, default: bool = False) -> bool: ...

    async def input(self, title: str, *, placeholder: str = "", default: str | None = None) -> str | None: ...

    async def editor(self, title: str, text: str = "") -> str | None: ...

    def notify(self, message: str, level: NoticeLevel = "info") -> None: ...

    def set_status(self, key: str, text: str | None) -> None: ...

    def set_widget(self, key: str, lines: Sequence[str] | None) -> None: ...


class HeadlessUI:
    """No one to ask: dialogs answer their default with a warning; status and widgets are kept."""

    interactive = False

    def __init__(self, warn: Callable[[str], object]) -> None:
        self._warn = warn
        self.status: dict[str, str] = {}
        self.widgets: dict[str, list[str]] = {}
        self.notices: list[tuple[NoticeLevel, str]] = []

    def _unanswered(self, kind: str, title: str, answer: object) -> None:
        self._warn(f"{kind} {title!r} needs a person; no UI in this mode, answered {answer!r}")

    async def select(self, title: str, options: Sequence[str], *, default: str | None = None) -> str | None:
        self._unanswered("select", title, default)
        return default

    async def confirm(self, title: str, message: str = "", *, default: bool = False) -> bool:
        self._unanswered("confirm", title, default)
        return default

    async def input(self, title: str, *, placeholder: str = "", default: str | None = None) -> str | None:
        self._unanswered("input", title, default)
        return default

    async def editor(self, title: str, text: str = "") -> str | None:
        self._unanswered("editor", title, None)
        return None

    def notify(self, message: str, level: NoticeLevel = "info") -> None:
        self.notices.append((level, message))
        self._warn(message if level == "info" else f"{level}: {message}")

    def set_status(self, key: str, text: str | None) -> None:
        if text is None:
            self.status.pop(key, None)
        else:
            self.status[key] = text

    def set_widget(self, key: str, lines: Sequence[str] | None) -> None:
        if lines is None:
            self.widgets.pop(key, None)
        else:
            self.widgets[key] = list(lines)


class LateBoundUI:
    """Forwards to ``fallback`` until ``bind`` gives it the real bridge."""

    def __init__(self, fallback: UIBridge) -> None:
        self._target = fallback

    def bind(self, target: UIBridge) -> None:
        self._target = target

    @property
    def interactive(self) -> bool:
        return self._target.interactive

    async def select(self, title: str, options: Sequence[str], *, default: str | None = None) -> str | None:
        return await self._target.select(title, options, default=default)

    async def confirm(self, title: str, message: str = "", *, default: bool = False) -> bool:
        return await self._target.confirm(title, message, default=default)

    async def input(self, title: str, *, placeholder: str = "", default: str | None = None) -> str | None:
        return await self._target.input(title, placeholder=placeholder, default=default)

    async def editor(self, title: str, text: str = "") -> str | None:
        return await self._target.editor(title, text)

    def notify(self, message: str, level: NoticeLevel = "info") -> None:
        self._target.notify(message, level)

    def set_status(self, key: str, text: str | None) -> None:
        self._target.set_status(key, text)

    def set_widget(self, key: str, lines: Sequence[str] | None) -> None:
        self._target.set_widget(key, lines)

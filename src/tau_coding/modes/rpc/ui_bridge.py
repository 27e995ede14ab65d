"""The extension-UI sub-protocol: dialogs and notices an extension shows, answered by the client.

Dialogs (``select``, ``confirm``, ``input``, ``editor``) write an ``extension_ui_request``
with a fresh id and wait for the ``extension_ui_response`` with that id. A dialog given a
``timeout`` resolves to its default when the time runs out (None, or False for confirm), as
does a cancelled one, and every dialog still open when the session shuts down. Notices
(``notify``, ``set_status``, ``set_widget``, ``set_title``, ``set_editor_text``) are written
and forgotten. Methods are safe to call from any task of the server's event loop.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Sequence
from typing import Any, Literal

from tau_coding.modes.rpc.output import RpcOutput

NotifyType = Literal["info", "warning", "error"]
WidgetPlacement = Literal["aboveEditor", "belowEditor"]


class RpcExtensionUI:
    def __init__(self, output: RpcOutput, new_id: Callable[[], str] = lambda: str(uuid.uuid4())) -> None:
        self._out = output
        self._new_id = new_id
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}

    @property
    def pending(self) -> int:
        """Dialogs waiting for an answer."""
        return len(self._pending)

    # -- dialogs -----------------------------------------------------------------------------------

    async def select(self, title: str, options: Sequence[str], *, timeout: float | None = None) -> str | None:
        """The option the user chose, or None (cancelled, timed out)."""
        reply = await self._ask("select", {"title": title, "options": list(options)}, timeout)
        value = reply.get("value")
        return value if isinstance(value, str) else None

    async def confirm(self, title: str, message: str, *, timeout: float | None = None) -> bool:
        reply = await self._ask("confirm", {"title": title, "message": message}, timeout)
        return reply.get("confirmed") is True

    async def input(
        self, title: str, placeholder: str | None = None, *, timeout: float | None = None
    ) -> str | None:
        fields: dict[str, Any] = {"title": title}
        if placeholder is not None:
            fields["placeholder"] = placeholder
        reply = await self._ask("input", fields, timeout)
        value = reply.get("value")
        return value if isinstance(value, str) else None

    async def editor(
        self, title: str, prefill: str | None = None, *, timeout: float | None = None
    ) -> str | None:
        fields: dict[str, Any] = {"title": title}
        if prefill is not None:
            fields["prefill"] = prefill
        reply = await self._ask("editor", fields, timeout)
        value = reply.get("value")
        return value if isinstance(value, str) else None

    async def _ask(self, method: str, fields: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        request_id = self._new_id()
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        request: dict[str, Any] = {
            "type": "extension_ui_request",
            "id": request_id,
            "method": method,
            **fields,
        }
        if timeout is not None:
            request["timeout"] = round(timeout * 1000)
        self._out.send(request)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return {"cancelled": True}
        finally:
            self._pending.pop(request_id, None)

    def resolve(self, response: dict[str, Any]) -> bool:
        """Deliver a client's ``extension_ui_response``; False if no dialog has that id."""
        future = self._pending.get(str(response.get("id")))
        if future is None or future.done():
            return False
        future.set_result(response)
        return True

    def cancel_all(self) -> None:
        """Every open dialog resolves to its default (the session is shutting down)."""
        for future in self._pending.values():
            if not future.done():
                future.set_result({"cancelled": True})

    # -- notices -----------------------------------------------------------------------------------

    def notify(self, message: str, notify_type: NotifyType = "info") -> None:
        self._tell("notify", {"message": message, "notifyType": notify_type})

    def set_status(self, key: str, text: str | None) -> None:
        """Set (or with None clear) a status entry."""
        self._tell("setStatus", {"statusKey": key, **({"statusText": text} if text is not None else {})})

    def set_widget(
        self, key: str, lines: Sequence[str] | None, placement: WidgetPlacement = "aboveEditor"
    ) -> None:
        """Show lines of text above or below the editor (None clears the widget)."""
        fields: dict[str, Any] = {"widgetKey": key, "widgetPlacement": placement}
        if lines is not None:
            fields["widgetLines"] = list(lines)
        self._tell("setWidget", fields)

    def set_title(self, title: str) -> None:
        self._tell("setTitle", {"title": title})

    def set_editor_text(self, text: str) -> None:
        self._tell("set_editor_text", {"text": text})

    def _tell(self, method: str, fields: dict[str, Any]) -> None:
        self._out.send({"type": "extension_ui_request", "id": self._new_id(), "method": method, **fields})


__all__ = ["NotifyType", "RpcExtensionUI", "WidgetPlacement"]

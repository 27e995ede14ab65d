"""Typed access to a command's fields: a wrong or missing field is a CommandError naming it."""

from __future__ import annotations

from typing import Any

from tau_agent.content import ImageContent
from tau_coding.modes.rpc.responses import CommandError


class Fields:
    def __init__(self, command: dict[str, Any]) -> None:
        self._data = command
        self.type = str(command.get("type"))

    def _fail(self, name: str, expected: str) -> CommandError:
        return CommandError(f"{self.type}: field {name!r} must be {expected}")

    def text(self, name: str, *, non_empty: bool = False) -> str:
        value = self._data.get(name)
        if not isinstance(value, str) or (non_empty and not value.strip()):
            raise self._fail(name, "a non-empty string" if non_empty else "a string")
        return value

    def optional_text(self, name: str) -> str | None:
        value = self._data.get(name)
        if value is not None and not isinstance(value, str):
            raise self._fail(name, "a string")
        return value

    def optional_entry_id(self, name: str) -> str | None:
        """An entry id or null (null: before the first entry); the field must be present."""
        if name not in self._data:
            raise self._fail(name, "an entry id or null")
        return self.optional_text(name)

    def flag(self, name: str) -> bool:
        value = self._data.get(name)
        if not isinstance(value, bool):
            raise self._fail(name, "true or false")
        return value

    def optional_flag(self, name: str) -> bool:
        return False if self._data.get(name) is None else self.flag(name)

    def choice(self, name: str, options: tuple[str, ...], *, optional: bool = False) -> str | None:
        value = self._data.get(name)
        if value is None and optional:
            return None
        if value not in options:
            raise self._fail(name, " or ".join(repr(o) for o in options))
        return str(value)

    def images(self) -> list[ImageContent]:
        value = self._data.get("images")
        if value is None:
            return []
        expected = 'a list of {"type": "image", "data": base64, "mimeType": "image/..."}'
        if not isinstance(value, list):
            raise self._fail("images", expected)
        out = []
        for item in value:
            if not (
                isinstance(item, dict)
                and item.get("type", "image") == "image"
                and isinstance(item.get("data"), str)
                and isinstance(item.get("mimeType"), str)
            ):
                raise self._fail("images", expected)
            out.append(ImageContent(item["data"], item["mimeType"]))
        return out


__all__ = ["Fields"]

"""What extensions registered: tools, commands, flags, shortcuts, renderers, providers, handlers.

Each registration remembers its owner, so unloading an extension removes exactly what it
added (and brings back a built-in tool it had replaced). Name clashes between extensions
are settled by the first registration; the later one is refused with a diagnostic. Shortcuts
and message renderers are kept as data for the TUI to read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from tau_agent.provider import ModelProvider
from tau_agent.tools import AgentTool
from tau_ai.model import Model

if TYPE_CHECKING:
    from tau_coding.common.tool_renderers import ToolRenderer
    from tau_coding.config.oauth.providers import LoginProvider

Handler = Callable[..., Any]
Completer = Callable[[str], Sequence[str]]
FlagKind = Literal["bool", "str"]
BUILTIN = "tau"  # the built-in extension (extensions/builtin.py): it owns what Tau registers itself


# Plain classes, not dataclasses: the built-in extension registers through these at every
# start-up, and creating five dataclasses costs ~1 ms there.


class Command:
    __slots__ = ("complete", "description", "handler", "name", "owner")

    def __init__(
        self,
        owner: str,
        name: str,
        handler: Handler,  # handler(args: str) -> None | str (text shown to the user)
        description: str = "",
        complete: Completer | None = None,  # complete(prefix) -> candidate arguments
    ) -> None:
        self.owner, self.name, self.handler = owner, name, handler
        self.description, self.complete = description, complete


class Flag:
    __slots__ = ("default", "description", "kind", "name", "owner")

    def __init__(
        self,
        owner: str,
        name: str,
        kind: FlagKind = "bool",
        default: bool | str | None = None,
        description: str = "",
    ) -> None:
        self.owner, self.name, self.kind = owner, name, kind
        self.default, self.description = default, description


class Shortcut:
    __slots__ = ("description", "handler", "key", "owner")

    def __init__(self, owner: str, key: str, handler: Handler, description: str = "") -> None:
        self.owner, self.key, self.handler, self.description = owner, key, handler, description


class Renderer:
    __slots__ = ("custom_type", "owner", "render")

    def __init__(self, owner: str, custom_type: str, render: Handler) -> None:
        self.owner, self.custom_type = owner, custom_type
        self.render = render  # render(message) -> list[str] of lines


class ProviderRegistration:
    """``factory(model)`` makes the provider for a model of this provider name; ``login``
    names the provider's own OAuth login (a ``config.oauth.providers.LoginProvider``)."""

    __slots__ = ("factory", "login", "models", "name", "owner")

    def __init__(
        self,
        owner: str,
        name: str,
        factory: Callable[[Model], ModelProvider],
        models: tuple[Model, ...] = (),
        login: LoginProvider | None = None,
    ) -> None:
        self.owner, self.name, self.factory, self.models = owner, name, factory, models
        self.login = login

    def withdrawn(self) -> None:
        """The registration went: so does its login (``/login`` and ``tau login`` drop it)."""
        if self.login is not None:
            from tau_coding.config.oauth.providers import unregister_login_provider

            unregister_login_provider(self.login.id)


def command_name(text: str) -> str:
    """``reload`` for ``/reload now``; empty when the text is not a command (``//`` escapes)."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return ""
    return stripped[1:].split(maxsplit=1)[0] if len(stripped) > 1 else ""


class Registry:
    """The tables, keyed by name; a plain class (a dataclass here costs start-up time)."""

    def __init__(self) -> None:
        self.tools: dict[str, tuple[str, AgentTool]] = {}
        self.commands: dict[str, Command] = {}
        self.flags: dict[str, Flag] = {}
        self.flag_values: dict[str, bool | str] = {}
        self.shortcuts: dict[str, Shortcut] = {}
        self.renderers: dict[str, Renderer] = {}
        self.providers: dict[str, ProviderRegistration] = {}
        self.handlers: dict[str, list[tuple[str, Handler]]] = {}
        self.channels: dict[str, list[tuple[str, Handler]]] = {}  # the event bus (bus.py)
        # Tools drawn their own way in the TUI: name -> (owner, ToolRenderer)
        self.tool_renderers: dict[str, tuple[str, ToolRenderer]] = {}

    def owner_of(self, table: dict[str, Any], name: str) -> str | None:
        entry = table.get(name)
        if entry is None:
            return None
        return entry[0] if isinstance(entry, tuple) else str(entry.owner)

    def handlers_for(self, *names: str) -> list[tuple[str, Handler]]:
        out: list[tuple[str, Handler]] = []
        for name in names:
            out.extend(self.handlers.get(name, ()))
        return out

    def remove_owner(self, owner: str) -> None:
        """Forget everything ``owner`` registered."""
        self.tools = {k: v for k, v in self.tools.items() if v[0] != owner}
        self.tool_renderers = {k: v for k, v in self.tool_renderers.items() if v[0] != owner}
        for name in [n for n, r in self.providers.items() if r.owner == owner]:
            self.providers.pop(name).withdrawn()
        for table in (self.commands, self.flags, self.shortcuts, self.renderers):
            for name in [n for n, r in table.items() if r.owner == owner]:
                del table[name]
        for subscriptions in (self.handlers, self.channels):
            for event, entries in list(subscriptions.items()):
                kept = [(o, h) for o, h in entries if o != owner]
                if kept:
                    subscriptions[event] = kept
                else:
                    del subscriptions[event]

    def parse_flags(self, argv: Sequence[str]) -> list[str]:
        """Read declared flags from ``argv`` (``--name``, ``--no-name``, ``--name=value``, ``--name value``).

        Returns what was not a declared flag, in order, for the caller to reject.
        """
        rest: list[str] = []
        items = list(argv)
        index = 0
        while index < len(items):
            item = items[index]
            index += 1
            name, _, value = item[2:].partition("=") if item.startswith("--") else ("", "", "")
            flag = self.flags.get(name)
            negated = self.flags.get(name[3:]) if name.startswith("no-") and not value else None
            if flag is None and negated is not None and negated.kind == "bool":
                self.flag_values[negated.name] = False
                continue
            if flag is None:
                rest.append(item)
                continue
            if flag.kind == "bool":
                self.flag_values[name] = value.lower() not in ("0", "false", "no") if value else True
            elif value or "=" in item:
                self.flag_values[name] = value
            elif index < len(items):
                self.flag_values[name] = items[index]
                index += 1
            else:
                rest.append(item)
        return rest

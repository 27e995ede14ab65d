"""MCP in one session: the manager, the ``mcp__*`` tools kept in step with it, and ``/mcp``.

Two ways in, one behaviour. When the session has an extension host anyway, MCP is a built-in
extension (``activate``): its tools and ``/mcp`` go through the same registry as the user's
extensions. Otherwise (most runs) ``attach`` installs ``McpHooks`` as the session's hooks, so
a run with MCP servers does not pay for the extension machinery at start-up.

Either way: the servers start on the MCP thread once start-up is done (``START_DELAY``) or at
the first prompt, whichever is first. Before each prompt goes to the model the tools are
brought up to date; the first prompt also waits for servers still starting, at most
``mcp.startupTimeoutMs``, then goes without the ones not ready, saying so in one line.
``/mcp`` shows each server's state, tools and last error; ``/mcp restart [NAME]`` (or
``reconnect``) restarts one (or every failed one) at once; ``/mcp enable|disable NAME`` offers
or withholds a server's tools for the rest of the session, from the next model request on. The
same is there for RPC clients (``status``, ``restart``, ``set_enabled``: the session's
``McpControl``). The servers shut down with the session.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from tau_agent.tools import AgentTool
from tau_coding.mcp.config import ServerConfig
from tau_coding.mcp.hooks import COMMAND_HELP, McpHooks
from tau_coding.mcp.manager import DEFAULT_CONNECT_TIMEOUT, McpManager
from tau_coding.mcp.search import CALL_TOOL, DEFAULT_SHARE, SEARCH_TOOL, needs_search, search_tools
from tau_coding.mcp.status import McpCallError, ServerStatus
from tau_coding.mcp.tools import PREFIX, mcp_tool, tool_name

if TYPE_CHECKING:
    from tau_coding.extensions.api import ExtensionAPI
    from tau_coding.session.coding_session import CodingSession

DEFAULT_STARTUP_TIMEOUT_MS = 10_000
DEFAULT_TOOL_TIMEOUT_MS = 300_000
# The SDK import (about half a second of CPU) runs on the MCP thread; holding it back until
# start-up is done keeps it from competing with the TUI's own start for the interpreter.
START_DELAY = 0.3
SEARCH_NAMES = (SEARCH_TOOL, CALL_TOOL)
_MENTION = re.compile(r"(?<!\S)@([A-Za-z0-9_-]+):(\S+)")  # @server:uri


class McpSettings(NamedTuple):
    """``mcp.*`` settings, in seconds."""

    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT_MS / 1000
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    tool_timeout: float = DEFAULT_TOOL_TIMEOUT_MS / 1000
    search_share: float = DEFAULT_SHARE  # of the context window; above it, tools go through search

    @classmethod
    def from_settings(cls, get: Callable[[str], Any]) -> McpSettings:
        def seconds(key: str, default: float) -> float:
            value = get(key)
            return value / 1000 if isinstance(value, int) and value > 0 else default

        share = get("mcp.toolSearchShare")
        return cls(
            seconds("mcp.startupTimeoutMs", DEFAULT_STARTUP_TIMEOUT_MS / 1000),
            seconds("mcp.connectTimeoutMs", DEFAULT_CONNECT_TIMEOUT),
            seconds("mcp.toolTimeoutMs", DEFAULT_TOOL_TIMEOUT_MS / 1000),
            float(share) if isinstance(share, int | float) and 0 <= share <= 1 else DEFAULT_SHARE,
        )


class McpSession:
    """See the module docstring."""

    def __init__(
        self,
        servers: list[ServerConfig],
        settings: McpSettings,
        cwd: Path,
        notify: Callable[[str], object],
        scrub_env: frozenset[str] = frozenset(),
        token_file: Path | None = None,
    ) -> None:
        """``token_file``: where OAuth tokens of remote servers are kept (none: no OAuth)."""
        self.settings = settings
        self.notify = notify
        self.manager = McpManager(
            servers,
            cwd=cwd,
            report=self._report,
            connect_timeout=settings.connect_timeout,
            scrub_env=scrub_env,
            token_file=token_file,
            open_url=self._open_url if token_file is not None else None,
        )
        self._register: Callable[[list[AgentTool]], None] = lambda tools: None
        self._context_window: Callable[[], int] = lambda: 0
        self._tools: dict[str, AgentTool] = {}  # every MCP tool now, listed or behind search
        self._generation = -1
        self._waited = False

    def _report(self, line: str) -> None:
        self.notify(line)

    def _open_url(self, url: str) -> None:
        """An MCP server wants OAuth: say where to authorize, and open a browser on a desktop."""
        import os
        import sys

        self.notify(f"MCP: authorize Tau in your browser: {url}")
        if (
            sys.platform in ("darwin", "win32")
            or os.environ.get("DISPLAY")
            or os.environ.get("WAYLAND_DISPLAY")
        ):
            import webbrowser

            webbrowser.open(url)  # not in a bare terminal, where it would start a text browser in it

    @property
    def handler_timeout(self) -> float:
        """How long the prompt-time handler may take (the first prompt's wait and then some)."""
        return self.settings.startup_timeout + 30

    # -- the two ways in -------------------------------------------------------------------------

    def activate(self, tau: ExtensionAPI) -> None:
        """As a built-in extension: tools through ``tau.register_tool``, ``/mcp`` as its command."""
        registered: set[str] = set()

        def register(tools: list[AgentTool]) -> None:
            names = {t.name for t in tools}
            for name in registered - names:
                tau.unregister_tool(name)
            for tool in tools:
                tau.register_tool(tool)
            registered.clear()
            registered.update(names)

        self.notify = lambda line: tau.notify(line, "warning")
        self._register, self._generation = register, -1
        self._context_window = lambda: tau.session.model.context_window

        from tau_coding.extensions.events import InputEvent, InputHandled, InputTransform

        async def on_input(event: InputEvent) -> InputHandled | InputTransform | None:
            await self.before_prompt()
            try:
                expanded = await self.expand_input(event.text)
            except McpCallError as exc:
                return InputHandled(str(exc))
            return InputTransform(expanded) if expanded is not None else None

        tau.on("input", on_input)
        tau.on("session_shutdown", lambda event: self.close() if event.reason == "quit" else None)
        tau.register_command("mcp", self.command, description=COMMAND_HELP)
        self.manager.start(delay=START_DELAY)

    def attach(self, session: CodingSession, system_prompt: Callable[[list[AgentTool]], str]) -> None:
        """Without an extension host: hooks wrapping the session's own, and the tools set on its harness."""
        harness = session.harness

        def register(tools: list[AgentTool]) -> None:
            kept = [t for t in harness.tools if not t.name.startswith(PREFIX) and t.name not in SEARCH_NAMES]
            harness.tools = [*kept, *tools]
            harness.system_prompt = system_prompt(harness.tools)

        self._register = register
        self._context_window = lambda: session.model.context_window
        session.hooks = McpHooks(self, session.hooks)
        self.manager.start(delay=START_DELAY)

    # -- behaviour --------------------------------------------------------------------------

    async def before_prompt(self) -> None:
        if not self._waited:
            self._waited = True
            late = await self.manager.wait_settled(self.settings.startup_timeout)
            if late:
                self.notify(
                    f"MCP: going on without {', '.join(late)}: still starting after "
                    f"{self.settings.startup_timeout:g} s (mcp.startupTimeoutMs)"
                )
        self.sync_tools()

    def prompt_commands(self) -> list[tuple[str, str]]:
        """``/mcp__server__prompt`` for every prompt of a ready server, with its description."""
        return [
            (tool_name(p.server, p.name), p.description or f"prompt of MCP server {p.server}")
            for status in self.manager.statuses()
            if status.state == "ready" and status.enabled
            for p in status.prompts
        ]

    async def expand_input(self, text: str) -> str | None:
        """The input with MCP prompts and resources expanded; None when there is none."""
        expanded = await self.expand_prompt(text)
        attached = await self.attach_resources(text if expanded is None else expanded)
        return attached if attached is not None else expanded

    async def attach_resources(self, text: str) -> str | None:
        """``text`` with each ``@server:uri`` it mentions read and appended (None: it mentions none).

        A resource that cannot be read is appended as one line saying why; the prompt still goes."""
        ready = {s.name for s in self.manager.statuses() if s.state == "ready"}
        # Punctuation that ends the sentence is not part of the URI.
        mentions = [(m[1], m[2].rstrip(".,;:!?)'\"")) for m in _MENTION.finditer(text) if m[1] in ready]
        if not mentions:
            return None
        parts = [text]
        for server, uri in dict.fromkeys(mentions):
            try:
                content = await self.manager.read_resource(server, uri, timeout=self.settings.tool_timeout)
            except McpCallError as exc:
                content = f"(could not be read: {exc})"
            parts.append(f'<mcp-resource server="{server}" uri="{uri}">\n{content}\n</mcp-resource>')
        return "\n\n".join(parts)

    async def expand_prompt(self, text: str) -> str | None:
        """``/mcp__server__prompt args`` as the prompt's text (None for any other input).

        Words fill the prompt's arguments in order (quotes group words); what is left over goes
        to the last one. Raises ``McpCallError`` (one line) when the prompt cannot be had."""
        if not text.startswith("/" + PREFIX):
            return None
        command, _, rest = text[1:].partition(" ")
        found = [
            p
            for status in self.manager.statuses()
            for p in status.prompts
            if status.state == "ready" and status.enabled and tool_name(p.server, p.name) == command
        ]
        if not found:
            return None
        prompt = found[0]
        args = prompt_arguments(prompt.arguments, rest)
        missing = [name for name, required in prompt.arguments if required and not args.get(name)]
        if missing:
            raise McpCallError(f"/{command} needs {' '.join(f'<{m}>' for m in missing)}")
        return await self.manager.get_prompt(
            prompt.server, prompt.name, args, timeout=self.settings.tool_timeout
        )

    def sync_tools(self) -> None:
        """Offer the tools of every ready server (only when something changed since last time)."""
        manager = self.manager
        if manager.generation == self._generation:
            return
        self._generation = manager.generation
        tools: dict[str, AgentTool] = {}
        for status in manager.statuses():
            if status.state == "ready" and status.enabled:
                for info in status.tools:
                    tool = mcp_tool(manager, info, timeout=self.settings.tool_timeout)
                    tools.setdefault(tool.name, tool)
        self._tools = tools
        listed = list(tools.values())
        if needs_search(listed, self._context_window(), self.settings.search_share):
            listed = search_tools(lambda: self._tools)
        self._register(listed)

    async def command(self, args: str) -> str:
        words = args.split()
        verb = words[0] if words else ""
        if verb in ("reconnect", "restart"):
            names = words[1:] or [s.name for s in self.manager.statuses() if s.state == "failed"]
            unknown = [n for n in names if not self.restart(n)]
            if unknown:
                return f"/mcp {verb}: no server named {unknown[0]!r}"
            return f"Restarting {', '.join(names)}." if names else "No failed server to restart."
        if verb in ("enable", "disable"):
            if len(words) != 2:
                return f"/mcp {verb} needs one server name"
            if not self.set_enabled(words[1], verb == "enable"):
                return f"/mcp {verb}: no server named {words[1]!r}"
            return f"MCP server {words[1]} {verb}d for this session (from the next request on)."
        if verb:
            return f"/mcp {verb}: unknown; /mcp [restart NAME | enable NAME | disable NAME]"
        return status_report(self.manager.statuses())

    # -- McpControl (tau_coding.session.mcp_port), for RPC clients ---------------------------

    def status(self) -> list[dict[str, Any]]:
        return [status_dict(s) for s in self.manager.statuses()]

    def restart(self, name: str) -> bool:
        return self.manager.reconnect(name)

    def resource_mentions(self) -> list[str]:
        return [
            f"{s.name}:{uri}"
            for s in self.manager.statuses()
            if s.state == "ready" and s.enabled
            for uri in s.resources
        ]

    def set_enabled(self, name: str, enabled: bool) -> bool:
        if not self.manager.set_enabled(name, enabled):
            return False
        self.sync_tools()
        return True

    def close(self) -> None:
        self.manager.close()


def prompt_arguments(arguments: tuple[tuple[str, bool], ...], text: str) -> dict[str, str]:
    """Words of ``text`` for ``arguments`` in order; the rest joins the last one."""
    import shlex

    try:
        words = shlex.split(text)
    except ValueError:  # an unbalanced quote: plain words then
        words = text.split()
    names = [name for name, _ in arguments]
    if not names:
        return {}
    values = [*words[: len(names) - 1], " ".join(words[len(names) - 1 :])]
    return {name: value for name, value in zip(names, values, strict=False) if value}


def status_report(statuses: list[ServerStatus]) -> str:
    """What ``/mcp`` shows: one block per server."""
    if not statuses:
        return "No MCP servers configured."
    lines = ["MCP servers:"]
    for status in statuses:
        count = f", {len(status.tools)} tool(s)" if status.state == "ready" else ""
        off = "" if status.enabled else ", disabled in this session"
        lines.append(f"  {status.name} ({status.transport}): {status.state}{count}{off}")
        if status.tools:
            lines.append("    tools: " + ", ".join(t.name for t in status.tools))
        if status.prompts:
            lines.append(
                "    prompts: " + ", ".join("/" + tool_name(p.server, p.name) for p in status.prompts)
            )
        if status.error:
            lines.append(f"    last error: {status.error}")
    lines.append(
        "/mcp restart NAME restarts a server; /mcp enable|disable NAME offers or withholds its tools."
    )
    return "\n".join(lines)


def status_dict(status: ServerStatus) -> dict[str, Any]:
    """One server's state as RPC's ``get_mcp_status`` answers it (docs/rpc.md)."""
    return {
        "name": status.name,
        "transport": status.transport,
        "state": status.state,
        "enabled": status.enabled,
        "tools": [tool_name(t.server, t.name) for t in status.tools],
        "prompts": ["/" + tool_name(p.server, p.name) for p in status.prompts],
        "resources": list(status.resources),
        "error": status.error,
    }

"""McpManager: every configured MCP server, connected on a thread of its own.

The servers live on one daemon thread running its own asyncio loop, so starting them (the SDK
import included) never holds up typing or the session's loop, and a server that hangs or
crashes stays there. The session's side talks to it with ``wait_settled`` (the first prompt's
wait), ``call`` (a tool call, cancelled with the turn), ``statuses`` (what ``/mcp`` shows),
``reconnect``, ``set_enabled`` and ``close``. A failure (start, crash, hang in ``initialize``, a
call that timed out on a server that then does not answer a ping) is reported once in one line
through ``report`` and leaves the server ``failed`` with its last error. The next call to one
of its tools restarts it, after a backoff (``backoff.restart_delay``); ``reconnect`` restarts
it at once. A disabled server stays connected, but its tools are not offered and its calls are
refused. ``generation`` changes whenever any server's tools, state or enablement change.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from concurrent.futures import Future
from contextlib import AsyncExitStack, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from tau_agent.cancellation import CancellationToken
from tau_coding.mcp.backoff import BASE, CAP, restart_delay
from tau_coding.mcp.config import ServerConfig
from tau_coding.mcp.status import McpCallError, PromptInfo, ServerStatus, State, ToolInfo, describe

if TYPE_CHECKING:
    from mcp.types import CallToolResult

    from tau_coding.mcp.connection import Connection

DEFAULT_CONNECT_TIMEOUT = 30.0
PING_TIMEOUT = 5.0  # after a call timed out: a server that does not answer a ping this soon is hung
T = TypeVar("T")


class _Server:
    """One server's live state, owned by the MCP thread (read under the manager's lock).

    A plain class: dataclasses cost start-up time, and this module is imported at start-up."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.state: State = "starting"
        self.tools: tuple[ToolInfo, ...] = ()
        self.prompts: tuple[PromptInfo, ...] = ()
        self.resources: tuple[str, ...] = ()
        self.error: str | None = None
        self.connection: Connection | None = None
        self.reported = False  # again only after a call got an answer or a restart was asked for
        self.wake = asyncio.Event()  # stop, crash or reconnect
        self.retry = False
        self.enabled = True
        self.failures = 0  # in a row: since the last call that got an answer (or /mcp restart)
        self.failed_at = 0.0


class McpManager:
    """See the module docstring; every public method may be called from any thread."""

    def __init__(
        self,
        servers: Sequence[ServerConfig],
        *,
        cwd: Path,
        report: Callable[[str], object],
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        scrub_env: frozenset[str] = frozenset(),
        backoff: tuple[float, float] = (BASE, CAP),
        ping_timeout: float = PING_TIMEOUT,
        token_file: Path | None = None,
        open_url: Callable[[str], object] | None = None,
    ) -> None:
        """``token_file`` and ``open_url``: OAuth for HTTP servers that ask (``oauth.py``)."""
        self.cwd = cwd
        self.connect_timeout = connect_timeout
        self.backoff = backoff  # (base, cap) of the restart delay, in seconds
        self.ping_timeout = ping_timeout
        self.token_file = token_file
        self.open_url = open_url
        self.scrub_env = scrub_env  # left out of the environment stdio servers inherit
        self._report = report
        self._servers = {s.name: _Server(s) for s in servers}
        self._lock = threading.Lock()
        self._generation = 0
        self._loop: asyncio.AbstractEventLoop | None = (
            None  # made by start(): an unstarted manager holds none
        )
        self._settled: dict[str, asyncio.Event] = {}
        self._closing = False
        self._stopped: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._main, name="tau-mcp", daemon=True)
        self._delay = 0.0
        self._go = threading.Event()  # set: start now, the delay is over

    # -- the session's side --------------------------------------------------------------------

    def start(self, delay: float = 0.0) -> None:
        """Start the servers after ``delay`` seconds, or at once when a prompt needs them."""
        self._delay = delay
        self._loop = asyncio.new_event_loop()
        self._thread.start()

    @property
    def generation(self) -> int:
        return self._generation

    def statuses(self) -> list[ServerStatus]:
        with self._lock:
            return [
                ServerStatus(
                    s.config.name,
                    s.config.transport,
                    s.state,
                    s.tools,
                    s.error,
                    s.prompts,
                    s.enabled,
                    s.resources,
                )
                for s in self._servers.values()
            ]

    async def wait_settled(self, timeout: float) -> list[str]:
        """Wait until no server is still starting, at most ``timeout`` seconds; the names still starting."""
        self._go.set()
        starting = [s.name for s in self.statuses() if s.state == "starting"]
        if not starting or self._closing:
            return starting
        return await asyncio.wrap_future(self._submit(self._wait_settled(starting, timeout)))

    async def call(
        self,
        server: str,
        tool: str,
        args: dict[str, Any],
        *,
        timeout: float | None,
        signal: CancellationToken,
    ) -> CallToolResult:
        """The server's answer; cancelling ``signal`` cancels the request (the SDK then sends
        ``notifications/cancelled``). Raises ``McpCallError`` when no answer can come."""
        if self._closing:
            raise McpCallError("MCP is shut down")
        future = self._submit(self._call(server, tool, args, timeout))

        def cancel() -> None:
            future.cancel()

        unregister = signal.on_cancel(cancel)
        try:
            return await asyncio.wrap_future(future)
        finally:
            unregister()

    async def get_prompt(self, server: str, prompt: str, args: dict[str, str], *, timeout: float) -> str:
        """The prompt's messages as one text (raises ``McpCallError`` when it cannot be had)."""
        future = self._submit(self._get_prompt(server, prompt, args))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except TimeoutError:
            raise McpCallError(f"no answer from MCP server {server} within {timeout:g} s") from None

    async def read_resource(self, server: str, uri: str, *, timeout: float) -> str:
        """The resource's contents as text (raises ``McpCallError`` when it cannot be had)."""
        future = self._submit(self._read_resource(server, uri))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout)
        except TimeoutError:
            raise McpCallError(f"no answer from MCP server {server} within {timeout:g} s") from None

    def reconnect(self, name: str) -> bool:
        """Restart a server (any state) now, whatever its backoff; False when there is no such server."""
        if name not in self._servers or self._closing or self._loop is None:
            return False
        self._go.set()
        self._loop.call_soon_threadsafe(self._restart_asked, name)
        return True

    def set_enabled(self, name: str, enabled: bool) -> bool:
        """Offer (or withhold) a server's tools from now on; False when there is no such server."""
        server = self._servers.get(name)
        if server is None:
            return False
        with self._lock:
            if server.enabled != enabled:
                server.enabled = enabled
                self._generation += 1
        return True

    def close(self, timeout: float = 3.0) -> None:
        """Shut every server down (stdio processes end), waiting at most ``timeout`` seconds."""
        if self._closing:
            return
        self._closing = True
        self._go.set()
        if self._loop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop_all)
            self._thread.join(timeout)

    # -- the MCP thread ------------------------------------------------------------------------

    def _submit(self, work: Coroutine[Any, Any, T]) -> Future[T]:
        """Run ``work`` on the MCP thread's loop (starting now, whatever the delay)."""
        if self._loop is None:
            work.close()
            raise McpCallError("MCP servers were never started")
        self._go.set()
        return asyncio.run_coroutine_threadsafe(work, self._loop)

    def _main(self) -> None:
        loop = self._loop
        assert loop is not None
        self._go.wait(self._delay)
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._run_all())
        finally:
            loop.close()

    async def _run_all(self) -> None:
        if self._closing:  # closed before the start-up delay was over
            return
        self._settled = {name: asyncio.Event() for name in self._servers}
        self._stopped = asyncio.Event()
        tasks = [asyncio.create_task(self._serve(s)) for s in self._servers.values()]
        await self._stopped.wait()  # servers that failed wait here for a reconnect
        await asyncio.gather(*tasks, return_exceptions=True)

    def _stop_all(self) -> None:
        if self._stopped is not None:
            self._stopped.set()
        for server in self._servers.values():
            server.wake.set()

    def _restart_asked(self, name: str) -> None:
        server = self._servers[name]
        server.failures, server.reported = 0, False
        self._request_reconnect(server)

    def _request_reconnect(self, server: _Server) -> None:
        server.retry = True
        server.wake.set()

    async def _wait_settled(self, names: list[str], timeout: float) -> list[str]:
        waits = [asyncio.ensure_future(self._settled[n].wait()) for n in names if n in self._settled]
        if waits:
            _, pending = await asyncio.wait(waits, timeout=timeout)
            for task in pending:
                task.cancel()
        return [s.name for s in self.statuses() if s.state == "starting"]

    def _set(self, server: _Server, state: State, **changes: Any) -> None:
        with self._lock:
            server.state = state
            for key, value in changes.items():
                setattr(server, key, value)
            self._generation += 1
        if state != "starting" and server.config.name in self._settled:
            self._settled[server.config.name].set()

    def _fail(self, server: _Server, error: str) -> None:
        if server.state != "failed":  # one failure, however many ways it shows (EOF, closed call)
            server.failures += 1
            server.failed_at = time.monotonic()
        self._set(server, "failed", error=error, tools=(), prompts=(), resources=(), connection=None)
        if not server.reported and not self._closing:
            server.reported = True
            self._report(f"MCP server {server.config.name}: {error}")
        server.wake.set()

    async def _serve(self, server: _Server) -> None:
        while not self._closing:
            server.wake.clear()
            server.retry = False
            self._set(server, "starting", error=None)
            if server.config.name in self._settled:
                self._settled[server.config.name].clear()
            try:
                await self._connected(server)
            except Exception as exc:
                if not server.retry:  # else it is the old connection's end, a restart is under way
                    self._fail(server, describe(exc))
            if self._closing:
                break
            if not server.retry:
                server.wake.clear()
                await server.wake.wait()  # failed: stay so until a reconnect (or close) is asked for
            if not server.retry:
                break
        self._set(server, "stopped", tools=(), prompts=(), resources=(), connection=None)

    async def _connected(self, server: _Server) -> None:
        from tau_coding.mcp.connection import open_connection

        async def tools_changed() -> None:
            asyncio.get_running_loop().create_task(self._refresh(server))

        async def prompts_changed() -> None:
            asyncio.get_running_loop().create_task(self._refresh_prompts(server))

        async def transport_error(exc: Exception) -> None:
            self._fail(server, describe(exc))

        # The SDK's cancel scopes must nest, so the start-up limit cancels this task from
        # outside rather than wrapping the entered contexts in a timeout scope.
        task = asyncio.current_task()
        assert task is not None
        expired = False

        def expire() -> None:
            nonlocal expired
            expired = True
            task.cancel()

        deadline = asyncio.get_running_loop().call_later(self.connect_timeout, expire)
        try:
            async with AsyncExitStack() as stack:
                connection = await open_connection(
                    server.config,
                    stack,
                    cwd=self.cwd,
                    scrub_env=self.scrub_env,
                    on_tools_changed=tools_changed,
                    on_prompts_changed=prompts_changed,
                    on_transport_error=transport_error,
                    token_file=self.token_file,
                    open_url=self.open_url,
                )
                tools = await connection.list_tools()
                prompts = await _prompts_of(connection, server.config.name)
                resources = await _resources_of(connection)
                deadline.cancel()
                self._set(
                    server,
                    "ready",
                    connection=connection,
                    tools=_infos(server.config.name, tools),
                    prompts=prompts,
                    resources=resources,
                )
                await server.wake.wait()
                with self._lock:
                    server.connection = None
        except asyncio.CancelledError:
            if not expired:
                raise
            task.uncancel()
            raise TimeoutError(f"no answer within {self.connect_timeout:g} s of starting") from None
        finally:
            deadline.cancel()

    async def _refresh(self, server: _Server) -> None:
        connection = server.connection
        if connection is None:
            return
        try:
            tools = await connection.list_tools()
        except Exception as exc:
            self._fail(server, f"tools/list after list_changed failed: {describe(exc)}")
            return
        if server.connection is connection:
            self._set(server, "ready", tools=_infos(server.config.name, tools))

    async def _refresh_prompts(self, server: _Server) -> None:
        connection = server.connection
        if connection is not None:
            prompts = await _prompts_of(connection, server.config.name)
            if server.connection is connection:
                self._set(server, "ready", prompts=prompts)

    async def _get_prompt(self, name: str, prompt: str, args: dict[str, str]) -> str:
        from tau_coding.mcp.results import prompt_text

        connection = self._ready(name)
        return prompt_text(await self._asking(connection.get_prompt(prompt, args)))

    async def _read_resource(self, name: str, uri: str) -> str:
        from tau_coding.mcp.results import resource_text

        connection = self._ready(name)
        return resource_text(await self._asking(connection.read_resource(uri)))

    def _ready(self, name: str) -> Connection:
        server = self._servers.get(name)
        connection = server.connection if server is not None else None
        if connection is None:
            raise McpCallError(f"MCP server {name} is not ready")
        return connection

    async def _asking(self, request: Awaitable[T]) -> T:
        """``request``'s answer, an MCP error as one line."""
        from mcp.shared.exceptions import MCPError

        try:
            return await request
        except MCPError as exc:
            raise McpCallError(describe(exc)) from None

    async def _call(
        self, name: str, tool: str, args: dict[str, Any], timeout: float | None
    ) -> CallToolResult:
        from mcp.shared.exceptions import MCPError
        from mcp.types import CONNECTION_CLOSED, REQUEST_TIMEOUT

        server = self._servers.get(name)
        if server is None:
            raise McpCallError(f"no MCP server named {name!r}")
        if not server.enabled:
            raise McpCallError(f"MCP server {name} is disabled in this session (/mcp enable {name})")
        if server.state == "failed":
            await self._restart_for_call(server)
        elif server.state == "starting":  # e.g. restarted for another call a moment ago
            await self._settling(name)
        connection = server.connection
        if server.state != "ready" or connection is None:
            detail = f": {server.error}" if server.error else ""
            raise McpCallError(f"MCP server {name} is {server.state}{detail}")
        try:
            result = await connection.call_tool(tool, args, timeout)
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED or "closed" in str(exc).lower():
                tail = connection.stderr_tail()
                self._fail(server, f"connection closed{f': {tail}' if tail else ''}")
            elif exc.code == REQUEST_TIMEOUT and not await self._answers_ping(connection):
                self._fail(server, f"stopped answering (no answer to a ping within {self.ping_timeout:g} s)")
            raise McpCallError(describe(exc)) from None
        server.failures, server.reported = 0, False
        return result

    async def _restart_for_call(self, server: _Server) -> None:
        """Restart a failed server for a call once its backoff is over, and wait for it."""
        name = server.config.name
        wait = server.failed_at + restart_delay(server.failures, base=self.backoff[0], cap=self.backoff[1])
        wait -= time.monotonic()
        if wait > 0:
            raise McpCallError(
                f"MCP server {name} is failed: {server.error}; it is restarted by a call in "
                f"{wait:.0f} s, or now by /mcp restart {name}"
            )
        self._request_reconnect(server)
        self._set(server, "starting", error=None)  # so the wait below is for this start
        if name in self._settled:
            self._settled[name].clear()
        await self._settling(name)

    async def _settling(self, name: str) -> None:
        """Until the server is ready or failed, at most its start-up limit (and a little)."""
        if name in self._settled:
            with suppress(TimeoutError):  # still starting: the call says so
                await asyncio.wait_for(self._settled[name].wait(), self.connect_timeout + 5)

    async def _answers_ping(self, connection: Connection) -> bool:
        try:
            await asyncio.wait_for(connection.ping(), self.ping_timeout)
        except Exception:
            return False
        return True


async def _prompts_of(connection: Connection, server: str) -> tuple[PromptInfo, ...]:
    """The server's prompts; a server whose prompts/list fails simply has none."""
    try:
        prompts = await connection.list_prompts()
    except Exception:
        return ()
    return tuple(
        PromptInfo(
            server, p.name, p.description or "", tuple((a.name, bool(a.required)) for a in p.arguments or ())
        )
        for p in prompts
    )


async def _resources_of(connection: Connection) -> tuple[str, ...]:
    """The server's resource URIs; a server whose resources/list fails simply has none."""
    try:
        return tuple(await connection.list_resource_uris())
    except Exception:
        return ()


def _infos(server: str, tools: Sequence[Any]) -> tuple[ToolInfo, ...]:
    return tuple(ToolInfo(server, t.name, t.description or "", dict(t.input_schema)) for t in tools)

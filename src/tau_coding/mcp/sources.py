"""Which MCP servers a session in a directory has: Tau's files read, trust applied.

Cheap (standard library, a few small JSON files); called by the composition root at start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from tau_coding.common.diagnostics import Diagnostic
from tau_coding.config.paths import TauPaths
from tau_coding.config.settings import read_json_object
from tau_coding.mcp.config import ServerConfig, merge_sources, project_mcp_json, servers_in

if TYPE_CHECKING:
    from tau_coding.mcp.session import McpSession

TRUST_HINT = "run `tau --trust-project` in it once to trust it"


def configured_servers(
    paths: TauPaths,
    environ: Mapping[str, str],
    *,
    is_trusted: Callable[[], bool],
    warn: Callable[[str], object],
) -> list[ServerConfig]:
    """Every server of the user's settings and, if the project is trusted, of the project's
    ``.tau/settings.json`` and ``.mcp.json``; an untrusted project's servers are one warning."""
    problems: list[Diagnostic] = []
    user = servers_in(
        read_json_object(paths.user_settings, problems), str(paths.user_settings), environ, warn
    )
    project_files = [project_mcp_json(paths.cwd)]
    if paths.project_settings.resolve() != paths.user_settings.resolve():  # not when cwd is HOME
        project_files.insert(0, paths.project_settings)
    project_data = [(p, read_json_object(p, problems)) for p in project_files if p.is_file()]
    for problem in problems:
        warn(str(problem))
    if not any(data.get("mcpServers") for _, data in project_data):
        return user
    if not is_trusted():
        names = ", ".join(p.name for p, data in project_data if data.get("mcpServers"))
        warn(
            f"project {paths.cwd} configures MCP servers ({names}) that were not started: it is not trusted; {TRUST_HINT}"
        )
        return user
    layers = [servers_in(data, str(path), environ, warn) for path, data in project_data]
    return merge_sources(*layers, user)


def mcp_session(
    paths: TauPaths,
    environ: Mapping[str, str],
    get_setting: Callable[[str], Any],
    *,
    trust_project: bool,
    warn: Callable[[str], object],
    notify: Callable[[str], object],
    scrub_env: frozenset[str] = frozenset(),
) -> McpSession | None:
    """The session's MCP side when any server is configured, else None (and nothing imported).

    Stdio servers inherit Tau's environment less ``scrub_env`` (the credential variables commands
    do not see either); an entry's own ``env`` may still pass one on explicitly."""

    def is_trusted() -> bool:
        from tau_coding.extensions.trust import TrustStore

        return trust_project or TrustStore(paths.tau_home).is_trusted(paths.cwd)

    servers = configured_servers(paths, environ, is_trusted=is_trusted, warn=warn)
    if not servers:
        return None
    from tau_coding.mcp.session import McpSession, McpSettings

    settings = McpSettings.from_settings(get_setting)
    token_file = paths.tau_home / "mcp-auth.json"  # beside auth.json, apart from it (oauth.py)
    return McpSession(servers, settings, paths.cwd, notify, scrub_env, token_file)

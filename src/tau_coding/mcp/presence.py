"""Whether a run has MCP servers, answered without importing the MCP machinery.

Most runs have none and should pay nothing for MCP at start-up: the settings are already
loaded, so one dictionary look-up and one ``stat`` decide it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tau_coding.config.paths import TauPaths
    from tau_coding.mcp.session import McpSession


def maybe_mcp_session(
    paths: TauPaths,
    environ: Mapping[str, str],
    get_setting: Callable[[str], Any],
    *,
    trust_project: bool,
    warn: Callable[[str], object],
    notify: Callable[[str], object],
    scrub_env: frozenset[str] = frozenset(),
) -> McpSession | None:
    """The session's MCP side (see ``tau_coding.mcp.sources.mcp_session``), or None cheaply."""
    if not get_setting("mcpServers") and not (paths.cwd / ".mcp.json").is_file():
        return None
    from tau_coding.mcp.sources import mcp_session

    return mcp_session(
        paths,
        environ,
        get_setting,
        trust_project=trust_project,
        warn=warn,
        notify=notify,
        scrub_env=scrub_env,
    )

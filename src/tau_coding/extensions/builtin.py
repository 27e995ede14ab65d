"""The built-in extension ``tau``: Tau's own tools and commands, registered through the API.

It is present in every session. Its ``activate`` is the same kind of function a third-party
extension exports, and it uses only ``ExtensionAPI``'s public methods: ``register_tool`` for
each active built-in tool (read, write, edit, bash, grep, find, ls as chosen),
``register_provider`` for each provider of the model catalogue and models.json (served over
HTTP by the composition root's factory), ``register_command`` for ``/reload``, and, in the interactive mode, ``register_command`` and
``register_shortcut`` for the TUI's own commands and keys (``modes/interactive/tui_builtins.py``). The composition root runs it against a
``BuiltinHost`` (``builtin_host.py``, cheap to import); when third-party extensions or shell
hooks are loaded, the ``ExtensionHost`` adopts that host's registry, so what ``tau``
registered is in the one registry every extension sees.

A third-party tool with a built-in tool's name replaces it (with a notice); unloading that
extension brings the built-in back; so with a provider of a built-in name. Commands, keys and
providers another extension registered are refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from tau_agent.provider import ModelProvider
from tau_agent.tools import AgentTool
from tau_ai.model import Model

if TYPE_CHECKING:
    from tau_coding.extensions.api import ExtensionAPI

RELOADED = "Reloaded settings, models and resources."


def tau_extension(
    tools: Sequence[AgentTool],
    frontend: Callable[[ExtensionAPI], None] | None = None,
    *,
    providers: Mapping[str, Sequence[Model]] | None = None,
    provider_factory: Callable[[Model], ModelProvider] | None = None,
    parts: Sequence[Callable[[ExtensionAPI], None]] = (),
) -> Callable[[ExtensionAPI], None]:
    """The built-in extension's ``activate``: registers ``tools`` (in order), runs each of
    ``parts`` (the task list, subagents: each an ``activate`` of its own), registers each
    provider of ``providers`` (the catalogue and models.json: name -> models) served by
    ``provider_factory``, and ``/reload``; then lets ``frontend`` register the running
    frontend's own commands and keys through the same API (the interactive mode's
    ``TuiBuiltins``; its ``/reload`` adds the TUI's themes)."""

    def activate(tau: ExtensionAPI) -> None:
        for tool in tools:
            tau.register_tool(tool)
        for part in parts:
            part(tau)
        if providers and provider_factory is not None:
            for name, models in providers.items():
                tau.register_provider(name, provider_factory, models=models)
        tau.register_command("reload", reload_command(tau), description=RELOAD_DESCRIPTION)
        if frontend is not None:
            frontend(tau)

    return activate


RELOAD_DESCRIPTION = "re-read settings, models, extensions, skills and prompts; the conversation stays"


def reload_command(tau: ExtensionAPI) -> Callable[[str], object]:
    """``/reload`` typed as a prompt (print mode, RPC ``prompt``, the SDK): the session's own
    reload (``SessionControl.reload``: settings, models, resources and extensions, the same
    log), the one the TUI's ``/reload`` and RPC's ``reload`` run. A session opened without a
    control (a bare ``build_session``) can only reload its extensions."""

    async def reload(args: str) -> str:
        del args
        session = tau.session  # bound: commands run from the session's input
        if session.reloader is not None:
            session.reloader()
            return RELOADED
        count = tau.reload()
        if session.hooks is not None:  # the fresh extensions hear session_start, as at start-up
            await session.hooks.on_start()
        return f"Reloaded {count} extension(s)."

    return reload

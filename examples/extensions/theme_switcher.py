"""Switching the colour theme from a command: ``/flip-theme [name]`` and ``/sunset``.

``tau.ui.set_theme(name)`` switches to a theme Tau knows (and saves it as the default, as
``/theme`` does); ``tau.ui.set_theme(data)`` uses a theme given as the JSON of a theme file, for
this run only. Either answers a ``ThemeResult``: ``success``, or ``error`` saying why. Only the
TUI has themes: RPC and print mode answer ``success=False``.
"""

from __future__ import annotations

from tau_coding.extensions import ExtensionAPI

SUNSET = {
    "name": "sunset",
    "dark": True,
    "colors": {"primary": "#ff7e5f", "accent": "#feb47b", "background": "#2b1a1a", "foreground": "#fbe9e7"},
}


def activate(tau: ExtensionAPI) -> None:
    def flip(args: str) -> str:
        wanted = args.strip() or "light"
        result = tau.ui.set_theme(wanted)
        return f"theme: {wanted}" if result.success else f"theme unchanged: {result.error}"

    def sunset(args: str) -> str:
        result = tau.ui.set_theme(SUNSET)
        return "theme: sunset (this run)" if result.success else f"theme unchanged: {result.error}"

    tau.register_command("flip-theme", flip, description="switch the colour theme: /flip-theme [name]")
    tau.register_command("sunset", sunset, description="an extension's own colour theme, for this run")

"""``/readonly on|off``: offer the model only tools that cannot change files (``set_active_tools``)."""

from __future__ import annotations

from tau_coding.extensions import ExtensionAPI

READ_ONLY = ("read", "grep", "find", "ls")


def activate(tau: ExtensionAPI) -> None:
    def readonly(args: str) -> str:
        if args.strip() == "off":
            tau.set_active_tools(None)
        else:
            tau.set_active_tools([n for n in tau.get_active_tools() if n in READ_ONLY])
        return "tools: " + ", ".join(tau.get_active_tools())

    tau.register_command(
        "readonly",
        readonly,
        description="on|off: only read-only tools",
        complete=lambda p: [w for w in ("on", "off") if w.startswith(p)],
    )

"""``/todo add TEXT``, ``/todo list``, ``/todo clear``: a to-do list kept in the session file."""

from __future__ import annotations

from tau_coding.extensions import ExtensionAPI

ENTRY_TYPE = "todo"
SUBCOMMANDS = ("add", "list", "clear")


def activate(tau: ExtensionAPI) -> None:
    items: list[str] = []

    def todo(args: str) -> str:
        verb, _, rest = args.partition(" ")
        if verb == "add" and rest.strip():
            items.append(rest.strip())
            tau.append_entry(ENTRY_TYPE, {"items": list(items)})
            return f"Added: {rest.strip()} ({len(items)} open)"
        if verb == "clear":
            items.clear()
            tau.append_entry(ENTRY_TYPE, {"items": []})
            return "Cleared."
        if verb in ("", "list"):
            return "\n".join(f"{n}. {item}" for n, item in enumerate(items, 1)) or "Nothing to do."
        return "usage: /todo add TEXT | list | clear"

    def complete(prefix: str) -> list[str]:
        return [s for s in SUBCOMMANDS if s.startswith(prefix)]

    tau.register_command("todo", todo, description="keep a to-do list in this session", complete=complete)

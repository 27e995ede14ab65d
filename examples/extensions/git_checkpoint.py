"""A git commit after every successful write or edit: each change can be undone with git.

Uses ``tool_result`` (awaited before the model sees the result) and ``tau.exec`` (a program, no
shell). Outside a git repository it does nothing.
"""

from __future__ import annotations

from tau_coding.extensions import ExtensionAPI, ToolResultEvent


def activate(tau: ExtensionAPI) -> None:
    @tau.on("tool_result")
    async def checkpoint(event: ToolResultEvent) -> None:
        if event.is_error or event.tool_name not in ("write", "edit"):
            return
        path = str(event.input.get("path", ""))
        inside = await tau.exec("git", ["rev-parse", "--is-inside-work-tree"])
        if inside.code != 0 or not path:
            return
        await tau.exec("git", ["add", "--", path])
        await tau.exec(
            "git",
            [
                "-c",
                "user.name=tau",
                "-c",
                "user.email=tau@localhost",
                "commit",
                "-q",
                "-m",
                f"tau: {event.tool_name} {path}",
            ],
        )
        tau.set_status("checkpoint", f"checkpoint: {event.tool_name} {path}")

"""Commands on another machine: ``tau -e ssh_remote.py --ssh user@host``.

The ``remote_bash`` tool runs the model's command there, and the user's ``!cmd`` goes there too
(``user_bash`` answers it with the remote output). The program is ``--ssh-program`` (``ssh``
by default): the seam a test points at a local stand-in. Through ``tau.exec``, so with the
sandbox on (network off) ssh cannot connect: list this extension in
``sandbox.unconfinedExtensions`` and it runs ssh outside the sandbox.
"""

from __future__ import annotations

from typing import Any

from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.extensions import ExtensionAPI, UserBashEvent, UserBashPatch


def activate(tau: ExtensionAPI) -> None:
    tau.register_flag("ssh", kind="str", description="run commands on this host (user@host)")
    tau.register_flag("ssh-program", kind="str", default="ssh", description="the ssh client to use")

    async def remote(command: str, timeout: float | None = None) -> tuple[str, int]:
        host = tau.flag("ssh")
        program = str(tau.flag("ssh-program") or "ssh")
        result = await tau.exec(
            program, ["-o", "BatchMode=yes", str(host), command], timeout=timeout, unconfined=True
        )
        return result.stdout + result.stderr, result.code

    async def remote_bash(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        if not tau.flag("ssh"):
            return AgentToolResult.text("no remote host: start tau with --ssh user@host", is_error=True)
        output, code = await remote(str(args["command"]), args.get("timeout"))
        return AgentToolResult.text(
            output + (f"\n(exit code {code})" if code else ""), {"exitCode": code}, is_error=code != 0
        )

    tau.register_tool(
        AgentTool(
            "remote_bash",
            "Run a shell command on the remote host given with --ssh.",
            {
                "type": "object",
                "properties": {"command": {"type": "string"}, "timeout": {"type": "number"}},
                "required": ["command"],
            },
            remote_bash,
        )
    )

    @tau.on("user_bash")
    async def user_bash(event: UserBashEvent) -> UserBashPatch | None:
        if not tau.flag("ssh"):
            return None
        output, code = await remote(event.command)
        return UserBashPatch(output=output, exit_code=code)

"""Drive ``tau --mode rpc`` from another program with the typed client.

Run: python examples/rpc_client.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from local_model import MODEL, local_model

from tau_ai.testing.scripted_streams import ScriptedReply
from tau_coding.sdk.rpc_client import RpcClient

REPLIES = [ScriptedReply(chunks=("Hello ", "from ", "Tau.")), ScriptedReply(text="Bye.")]


async def main() -> None:
    async with local_model(REPLIES) as (project, environ):  # noqa: SIM117  (the client needs the project)
        async with await RpcClient.start(["--model", MODEL], cwd=project, env=environ) as tau:
            await tau.prompt("Say hello")
            async for event in tau.events(timeout=30):
                if event["type"] == "message_update":
                    delta = event["assistantMessageEvent"]
                    if delta["type"] == "text_delta":
                        print(delta["delta"], end="", flush=True)
                if event["type"] == "agent_settled":
                    print()
                    break
            await tau.prompt_and_wait("Say bye")
            state = await tau.get_state()
            print("model:", state["model"]["id"], "messages:", state["messageCount"])
            print("session file:", Path(state["sessionFile"]).name)
            print("last answer:", await tau.get_last_assistant_text())


if __name__ == "__main__":
    asyncio.run(main())

"""Handlers of the commands that run things: prompt, steer, follow_up, abort, bash, compaction.

Each handler takes the server, the command's fields and its id, and returns the response's
data (``NO_DATA`` for none, ``DEFERRED`` when a task it started will answer).
"""

from __future__ import annotations

from typing import Any

from tau_coding.modes.rpc.fields import Fields
from tau_coding.modes.rpc.responses import NO_DATA, CommandError, failure, success
from tau_coding.modes.rpc.server import DEFERRED, Handler, RpcServer
from tau_coding.session.events import (
    CompactionEndEvent,
    CompactionStartEvent,
    SessionEvent,
    session_event_to_dict,
)


async def prompt(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    """Accepted at once; events follow. While a run goes on, streamingBehavior queues it."""
    message, images = fields.text("message"), fields.images()
    behavior = fields.choice("streamingBehavior", ("steer", "followUp"), optional=True)
    await server.settle()
    if server.is_streaming and behavior is not None:
        server.queue("steer" if behavior == "steer" else "follow_up", message, images)
        return NO_DATA
    session = server.control.session
    server.start_run("prompt", request_id, lambda: session.prompt_batches(message, images))
    return NO_DATA


async def steer(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    return _queue_or_run(server, "steer", fields, request_id)


async def follow_up(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    return _queue_or_run(server, "follow_up", fields, request_id)


def _queue_or_run(server: RpcServer, kind: str, fields: Fields, request_id: Any) -> Any:
    """Mid-run the message waits in its queue; with nothing running it starts a run."""
    message, images = fields.text("message"), fields.images()
    server.queue(kind, message, images)
    if not server.is_streaming:
        server.start_run(kind, request_id, server.control.session.continue_batches)
    return NO_DATA


async def abort(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    await server.abort()
    return NO_DATA


async def abort_retry(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    """Stop waiting to retry: the failure being retried is reported and the run ends as usual."""
    server.control.session.abort_retry()
    return NO_DATA


async def set_auto_retry(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    """Agent-level retry of transient failures on or off (``retry.enabled``) for this process."""
    server.control.session.set_auto_retry(fields.flag("enabled"))
    return NO_DATA


async def bash(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    server.start_bash(request_id, fields.text("command", non_empty=True))
    return DEFERRED


async def abort_bash(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    server.abort_bash()
    return NO_DATA


async def compact(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    instructions = fields.optional_text("customInstructions")
    await server.settle()
    if server.is_streaming:
        raise CommandError("Cannot compact while the agent is running; abort it first")

    def relay(event: SessionEvent) -> None:  # no run streams them: they come by subscription
        if isinstance(event, CompactionStartEvent | CompactionEndEvent):
            server.out.send(session_event_to_dict(event))

    async def work() -> None:
        unsubscribe = server.control.session.subscribe(relay)
        try:
            result = await server.control.compact(instructions)
        except Exception as exc:
            server.out.send(failure("compact", request_id, str(exc) or type(exc).__name__))
            return
        finally:
            unsubscribe()
        server.out.send(success("compact", request_id, result.to_dict()))

    server.spawn(work())
    return DEFERRED


async def set_auto_compaction(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    server.control.set_auto_compaction(fields.flag("enabled"))
    return NO_DATA


async def get_context_usage(server: RpcServer, fields: Fields, request_id: Any) -> Any:
    return server.control.context_usage()  # a dataclass: the JSON encoder writes its fields


RUN_HANDLERS: dict[str, Handler] = {
    "prompt": prompt,
    "steer": steer,
    "follow_up": follow_up,
    "abort": abort,
    "abort_retry": abort_retry,
    "set_auto_retry": set_auto_retry,
    "bash": bash,
    "abort_bash": abort_bash,
    "compact": compact,
    "set_auto_compaction": set_auto_compaction,
    "get_context_usage": get_context_usage,
}

__all__ = ["RUN_HANDLERS"]

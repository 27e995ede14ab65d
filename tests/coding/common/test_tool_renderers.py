"""Tools drawn their own way: a renderer that fails leaves the default look, never an error."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tau_coding.common.tool_renderers import ToolRenderer, publish, rendered_call, rendered_result


@pytest.fixture(autouse=True)
def _none_published() -> Iterator[None]:
    publish({})
    yield
    publish({})


def test_a_published_renderer_draws_and_others_do_not() -> None:
    publish(
        {"dice": ToolRenderer(call=lambda args: f"🎲 {args['n']}", result=lambda o, d, e, x: f"rolled {o}")}
    )
    assert rendered_call("dice", {"n": 2}) == "🎲 2"
    assert rendered_result("dice", "7", None, False, False) == "rolled 7"
    assert rendered_call("read", {"path": "x"}) is None


def test_a_failing_renderer_falls_back_to_the_default() -> None:
    publish({"dice": ToolRenderer(call=lambda args: args["missing"], result=lambda o, d, e, x: str(1 / 0))})
    assert rendered_call("dice", {}) is None
    assert rendered_result("dice", "7", None, False, False) is None


def test_publishing_again_replaces_what_was_there() -> None:
    publish({"dice": ToolRenderer(call=lambda args: "a")})
    publish({})
    assert rendered_call("dice", {}) is None

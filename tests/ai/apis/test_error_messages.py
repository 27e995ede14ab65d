"""error_message: the provider's own words, one line, capped, for any body."""

from __future__ import annotations

import json

import pytest

from tau_ai.apis import MODULES, wire_api


@pytest.mark.parametrize("api", list(MODULES))
def test_error_message_handles_empty_text_and_nested_bodies(api: str) -> None:
    extract = wire_api(api).error_message
    assert extract(400, b"") == "400 status code (no body)"
    assert extract(502, b"<html>\n<b>Bad gateway</b>\n</html>") == "<html> <b>Bad gateway</b> </html>"
    assert extract(400, json.dumps([{"error": {"message": "listed"}}]).encode()) == "listed"
    assert extract(422, json.dumps({"detail": [{"msg": "field required"}]}).encode()) == "field required"
    assert extract(400, b"\xff\xfe broken utf8") == "\ufffd\ufffd broken utf8"


def test_long_messages_are_capped_on_one_line() -> None:
    body = json.dumps({"error": {"message": "line\n" * 400}}).encode()
    message = wire_api("openai-completions").error_message(400, body)
    assert len(message) == 500 and "\n" not in message and message.endswith("…")

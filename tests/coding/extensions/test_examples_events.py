"""The examples of lifecycle powers: an async refusal, a whole compaction, a response log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tau_agent.messages import CompactionSummaryMessage
from tau_agent.session.entries import CompactionEntry, MessageEntry
from tau_coding.extensions.provider_response import response_hook
from tau_coding.session.control import ChangeRefusedError, SessionControl
from tau_coding.session.store.manager import SessionManager
from tests.coding.extensions.helpers import fake, make_rig

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "extensions"


async def test_confirm_leave_stays_when_nobody_agrees_and_lets_an_empty_session_go(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake("hi"), [EXAMPLES / "confirm_leave.py"])
    control = SessionControl(rig.session, SessionManager(tmp_path / "sessions", str(tmp_path)))
    await control.asking(control.new_session)  # nothing to lose: not asked
    await rig.run("hello")
    with pytest.raises(ChangeRefusedError, match="stayed: start a new session declined"):
        await control.asking(control.new_session)
    assert len(rig.session.messages) == 2
    assert any("confirm 'Start a new session?' needs a person" in w for w in rig.warnings)


async def test_keep_last_compaction_summarises_all_but_the_last_messages(tmp_path: Path) -> None:
    provider = fake("answer one", "answer two", "answer three")
    rig = make_rig(tmp_path, provider, [EXAMPLES / "keep_last_compaction.py"])
    for prompt in ("first question", "second question", "third question"):
        await rig.run(prompt)
    messages = [e for e in rig.session.log.entries if isinstance(e, MessageEntry)]
    result = await rig.session.compact()
    assert result.first_kept_entry_id == messages[-4].id and provider.calls == 3
    assert result.summary.splitlines()[1:] == ["- user: first question", "- assistant: answer one"]
    assert result.details == {"keptMessages": 4, "by": "keep_last_compaction"}
    [entry] = [e for e in rig.session.log.tree if isinstance(e, CompactionEntry)]
    assert entry.from_hook is True
    assert isinstance(rig.session.messages[0], CompactionSummaryMessage)
    assert len(rig.session.messages) == 5  # the summary and the four kept


async def test_response_logger_writes_a_line_per_answer_and_warns_on_429(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, fake(), [EXAMPLES / "response_logger.py"])
    hook = response_hook(rig.host, "scripted", "scripted-model")
    await hook(200, {"x-request-id": "req-1", "x-ratelimit-remaining-requests": "9", "date": "today"})
    await hook(429, {"retry-after": "7"})
    lines = [
        json.loads(line) for line in (tmp_path / ".tau" / "provider-responses.jsonl").read_text().splitlines()
    ]
    assert [(r["status"], r["headers"]) for r in lines] == [
        (200, {"x-request-id": "req-1", "x-ratelimit-remaining-requests": "9"}),
        (429, {"retry-after": "7"}),
    ]
    assert ("warning", "rate limited by scripted; retry after 7s") in rig.ui.notices

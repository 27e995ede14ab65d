"""AutoTitler over a real CodingSession: an unnamed session is named after its first exchange,
in the background; a name the user gave wins; the setting turns it off."""

from __future__ import annotations

from pathlib import Path

from tau_agent.session.log import SessionLog
from tests.coding.tui.session_helpers import Rig, drain


async def _settled(rig: Rig) -> None:
    task = rig.port.titles.task
    if task is not None:
        await task


async def test_the_first_exchange_names_the_session_from_its_prompt(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["Sure.", "Again."], auto_title=True)
    told: list[str] = []
    rig.port.titles.listeners.append(lambda: told.append("title"))
    await drain(rig.port, "Fix the parser\nso that tabs work")
    await _settled(rig)
    assert rig.port.info().session_name == "Fix the parser" and told == ["title"]
    await drain(rig.port, "Something else entirely")  # a later exchange keeps the title
    await _settled(rig)
    assert rig.port.info().session_name == "Fix the parser" and told == ["title"]
    path = rig.control.session.session_file
    assert path is not None
    assert '"type":"session_info"' in path.read_text().replace(" ", "")  # stored as Pi stores a name
    exported = rig.port.export_html(str(tmp_path / "out.html"))
    assert not exported.is_error
    html = (tmp_path / "out.html").read_text()
    assert "<title>Fix the parser</title>" in html and "<h1>Fix the parser</h1>" in html


async def test_a_name_the_user_gave_wins(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["Sure."], auto_title=True)
    rig.port.set_session_name("my own name")
    await drain(rig.port, "Fix the parser")
    await _settled(rig)
    assert rig.port.info().session_name == "my own name"


async def test_a_name_given_while_the_title_is_made_wins(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["Sure."], auto_title=True)
    await drain(rig.port, "Fix the parser")
    rig.port.set_session_name("typed meanwhile")  # before the background task ran
    await _settled(rig)
    assert rig.port.info().session_name == "typed meanwhile"


async def test_the_setting_turns_titles_off(tmp_path: Path) -> None:
    rig = Rig(tmp_path, ["Sure."], auto_title=False)
    await drain(rig.port, "Fix the parser")
    await _settled(rig)
    assert rig.port.titles.task is None and rig.port.info().session_name is None


async def test_a_failed_reply_is_no_exchange_to_title(tmp_path: Path) -> None:
    from tau_agent.testing import fail

    rig = Rig(tmp_path, [fail("boom")], auto_title=True)
    await drain(rig.port, "Fix the parser")
    await _settled(rig)
    assert rig.port.info().session_name is None
    assert isinstance(rig.control.session.log, SessionLog)

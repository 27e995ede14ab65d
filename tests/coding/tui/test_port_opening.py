"""The app paints first and opens the session after (port_opening.py): keys typed meanwhile stay,
Enter waits and sends once, a session that cannot open closes the app with its reason."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from tau_agent.content import TextContent
from tau_agent.messages import AssistantMessage, UserMessage
from tau_agent.testing import FakeProvider, reply, text
from tau_coding.tui.port import SessionPort
from tau_coding.tui.port_opening import PortUnavailable
from tau_coding.tui.shell.app import TauApp
from tau_coding.tui.state import NoticeItem, UserItem
from tau_coding.tui.widgets.status_footer import StatusFooter
from tests.coding.tui.harness_port import HarnessSessionAdapter

from .helpers import adapter
from .test_app import SIZE, markdown_sources, type_text, until


class Opener:
    """Opens ``port`` when ``gate`` is set (the test decides when the session is ready)."""

    def __init__(self, port: HarnessSessionAdapter, notices: Sequence[str] = ()) -> None:
        self.port, self.notices = port, list(notices)
        self.gate, self.called = threading.Event(), threading.Event()
        self.calls = 0

    def __call__(self) -> tuple[SessionPort, Sequence[str]]:
        self.calls += 1
        self.called.set()
        assert self.gate.wait(10), "the test never let the session open"
        return self.port, self.notices


def opening_app(opener: object) -> TauApp:
    return TauApp(None, open_port=opener, cwd="/work/project", home="/home/user", list_files=None)  # type: ignore[arg-type]


def footer_text(app: TauApp) -> str:
    return str(app.query_one(StatusFooter).render())


async def test_the_editor_shows_before_the_session_opens_and_keys_typed_meanwhile_stay() -> None:
    opener = Opener(adapter(FakeProvider(["ok"]), cwd="/work/project"))
    app = opening_app(opener)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, opener.called.is_set)
        assert app.editor.has_focus and not app.has_port()
        assert "/work/project" in footer_text(app) and "fake/" not in footer_text(app)
        await type_text(pilot, "while it opens")
        assert app.editor.text == "while it opens"
        opener.gate.set()
        await until(pilot, lambda: app.has_port() and "fake/" in footer_text(app))
        assert app.editor.text == "while it opens" and opener.calls == 1


async def test_enter_before_the_session_opens_sends_once_it_is() -> None:
    opener = Opener(adapter(FakeProvider([reply(text("Answered."))])))
    app = opening_app(opener)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, opener.called.is_set)
        await type_text(pilot, "early question")
        await pilot.press("enter")
        await pilot.pause(0.1)
        assert not [i for i in app.state.items if isinstance(i, UserItem)]
        opener.gate.set()
        await until(pilot, lambda: app.state.status == "idle" and "Answered." in markdown_sources(app))
        assert [i.text for i in app.state.items if isinstance(i, UserItem)] == ["early question"]
        assert app.editor.text == ""


async def test_the_openers_notices_and_the_sessions_prompts_arrive_with_the_session() -> None:
    history = [UserMessage("recorded question"), AssistantMessage([TextContent("a")])]
    opener = Opener(adapter(FakeProvider(["ok"]), messages=history), notices=["an extension failed to load"])
    app = opening_app(opener)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, opener.called.is_set)
        await pilot.press("ctrl+t")  # Tau's own keys wait for the session: this one is not run
        assert not app._show_thinking
        opener.gate.set()
        await until(pilot, lambda: any(isinstance(i, NoticeItem) for i in app.state.items))
        notices = [i.text for i in app.state.items if isinstance(i, NoticeItem)]
        assert notices == ["an extension failed to load"]
        await pilot.press("up")
        assert app.editor.text == "recorded question"


async def test_a_session_that_cannot_open_closes_the_app_with_its_reason() -> None:
    def fail() -> tuple[SessionPort, Sequence[str]]:
        raise PortUnavailable("no model named 'nope'")

    app = opening_app(fail)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not app.is_running)
    assert app.start_error == "no model named 'nope'"
    assert app.return_code == 2


async def test_the_openers_notices_are_not_repeated_after_a_session_switch() -> None:
    """Found in real use: with no key, ``tau -r`` then a session with a model showed "no model
    configured" again under the resumed history. What opening said belongs to that moment; the
    problems in the user's files (given to the app) are shown again."""
    opener = Opener(adapter(FakeProvider(["ok"])), notices=["no model configured: ..."])
    app = TauApp(
        None,
        open_port=opener,
        cwd="/work/project",
        home="/home/user",
        list_files=None,
        startup_notices=["keybindings.json: oops"],
    )  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        opener.gate.set()
        await until(pilot, lambda: any(isinstance(i, NoticeItem) for i in app.state.items))
        shown = [i.text for i in app.state.items if isinstance(i, NoticeItem)]
        assert shown == ["no model configured: ...", "keybindings.json: oops"]
        await app.reset_transcript()
        assert [i.text for i in app.state.items if isinstance(i, NoticeItem)] == ["keybindings.json: oops"]

"""The editor's cursor steps over what the screen shows as one character: an accented letter
made of two code points, an emoji with a skin tone or joined by zero-width joiners, a flag."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tau_agent.testing.fake_provider import FakeProvider
from tau_coding.tui.graphemes import cluster_end, cluster_start
from tests.coding.tui.helpers import adapter
from tests.coding.tui.test_app import SIZE, make_app

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man ZWJ woman ZWJ girl: one emoji
WAVE = "\U0001f44b\U0001f3fd"  # waving hand, medium skin tone
FLAGS = "\U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea"  # France, then Germany
ACCENT = "e\u0301"  # e and a combining acute accent
HEART = "\u2764\ufe0f"  # heart and the emoji presentation selector


def clusters(line: str) -> list[str]:
    out, at = [], 0
    while at < len(line):
        end = cluster_end(line, at)
        out.append(line[at:end])
        at = end
    return out


def test_each_sequence_is_one_step_either_way() -> None:
    line = f"a{FAMILY}b{WAVE}{FLAGS}{ACCENT}{HEART}z"
    expected = ["a", FAMILY, "b", WAVE, FLAGS[:2], FLAGS[2:], ACCENT, HEART, "z"]
    assert clusters(line) == expected
    starts, at = [], len(line)
    while at > 0:
        at = cluster_start(line, at)
        starts.append(at)
    assert [line[s : cluster_end(line, s)] for s in reversed(starts)] == expected


def test_plain_text_steps_one_code_point() -> None:
    assert clusters("héllo wörld ß 中文") == list("héllo wörld ß 中文")


@given(st.text(st.characters(blacklist_categories=["Cs"]), max_size=30))
def test_steps_left_and_right_meet_at_the_same_places(line: str) -> None:
    rights, at = [0], 0
    while at < len(line):
        at = cluster_end(line, at)
        rights.append(at)
    lefts, at = [len(line)], len(line)
    while at > 0:
        at = cluster_start(line, at)
        lefts.append(at)
    assert rights == lefts[::-1]


async def test_arrows_and_backspace_in_the_editor_take_a_whole_emoji() -> None:
    app = make_app(adapter(FakeProvider([])))
    async with app.run_test(size=SIZE) as pilot:
        app.editor.load_text(f"a{FAMILY}b")
        app.editor.move_cursor((0, 1 + len(FAMILY) + 1))
        await pilot.press("left", "left")
        assert app.editor.cursor_location == (0, 1), "one step over b, one over the family"
        await pilot.press("right")
        assert app.editor.cursor_location == (0, 1 + len(FAMILY))
        await pilot.press("backspace")
        assert app.editor.text == "ab"
        app.editor.load_text(f"{WAVE}x")
        app.editor.move_cursor((0, 0))
        await pilot.press("delete")
        assert app.editor.text == "x"

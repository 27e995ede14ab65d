"""Print mode's UI: nobody to ask, so dialogs and screens answer their default, and what an
extension draws is kept until a real frontend binds (then handed on)."""

from __future__ import annotations

from tau_coding.extensions.ui import HeadlessUI, LateBoundUI


async def test_a_custom_screen_answers_none_with_a_warning() -> None:
    warnings: list[str] = []
    ui = HeadlessUI(warnings.append)
    assert await ui.custom(object) is None
    assert warnings == ["custom 'screen' needs a person; no UI in this mode, answered None"]


async def test_what_was_drawn_before_binding_is_handed_to_the_frontend() -> None:
    late = LateBoundUI(HeadlessUI(lambda line: None))
    late.set_widget("todo", ["[ ] ship"], "below")
    late.set_widget("stats", ["2 runs"])
    late.set_header(["head"])
    late.set_footer(["foot"])
    late.set_title("τ")
    late.set_editor_text("draft")
    assert late.get_editor_text() == "draft"
    frontend = HeadlessUI(lambda line: None)
    late.bind(frontend)
    assert frontend.widgets == {"todo": ["[ ] ship"], "stats": ["2 runs"]} and frontend.below == {"todo"}
    assert (frontend.header, frontend.footer, frontend.title) == (["head"], ["foot"], "τ")
    late.set_widget("todo", None)
    assert "todo" not in frontend.widgets and frontend.below == set()


async def test_tool_expansion_and_the_working_look_are_kept_and_handed_on_themes_are_none() -> None:
    late = LateBoundUI(HeadlessUI(lambda line: None))
    assert late.get_tools_expanded() is False
    late.set_tools_expanded(True)
    late.set_working_visible(False)
    late.set_working_indicator(["●"])
    late.set_hidden_thinking_label("pondering…")
    assert late.get_tools_expanded() is True
    assert late.get_all_themes() == [] and late.get_theme("dark") is None  # print mode: no themes
    frontend = HeadlessUI(lambda line: None)
    late.bind(frontend)
    assert frontend.tools_expanded and not frontend.working_visible
    assert frontend.working_indicator == ["●"] and frontend.hidden_thinking_label == "pondering…"

"""The Chat Completions converter's shortcuts for a long history's usual messages (an id kept
as it is, a one-block text result) give what the general rules give."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tau_agent.content import ImageContent, TextContent, text_of
from tau_agent.messages import ToolResultMessage
from tau_ai.apis.openai_completions.compat import Compat
from tau_ai.apis.openai_completions.convert import call_id, tool_result

ids = st.text(alphabet="ab|_-9é", max_size=50)
blocks = st.one_of(
    st.builds(TextContent, st.text(max_size=5)),
    st.builds(ImageContent, st.just("AAAA"), st.just("image/png")),
)


@given(ids)
def test_an_id_is_cut_as_the_rule_says(raw: str) -> None:
    assert call_id(raw) == raw.split("|", 1)[0][:40]


@given(ids, st.lists(blocks, max_size=3), st.booleans())
def test_a_result_says_its_text_as_the_rule_says(
    raw: str, content: list[TextContent | ImageContent], named: bool
) -> None:
    message = ToolResultMessage(raw, "read", content)
    text = text_of(content) or (
        "(see attached image)" if any(isinstance(b, ImageContent) for b in content) else "(no output)"
    )
    expected = {"role": "tool", "tool_call_id": raw.split("|", 1)[0][:40], "content": text}
    if named:
        expected["name"] = "read"
    assert tool_result(message, Compat(requires_tool_result_name=named)) == expected

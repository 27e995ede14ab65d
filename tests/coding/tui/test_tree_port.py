"""The /tree search rule and TreeRows built from rows already made (pure: no UI)."""

from __future__ import annotations

from tau_coding.tui.tree_port import TreeRow, TreeRows, matches, search_text, search_words


def test_a_search_needs_every_word_in_any_case() -> None:
    words = search_words("  Parser   BUG ")
    assert words == ["parser", "bug"]
    assert matches(words, search_text("user: fix the parser bug", None))
    assert matches(words, search_text("user: fix the parser", "Bug found"))  # the label counts
    assert not matches(words, search_text("user: fix the parser", None))
    assert matches(search_words(""), search_text("anything", None))


def test_built_rows_search_and_look_up_by_their_own_text_and_label() -> None:
    rows = TreeRows.of(
        [
            TreeRow("a", 0, "user: hello", on_path=True),
            TreeRow("b", 0, "assistant: hi there", "Greeting", on_path=True, is_leaf=True),
            TreeRow("c", 1, "user: hello again"),
        ]
    )
    assert rows.find("hello") == [0, 2]
    assert rows.find("greeting") == [1]
    assert rows.find("") == [0, 1, 2]
    assert rows.position("c") == 2 and rows.position("z") is None


def test_find_agrees_with_matches_as_a_query_narrows_and_widens() -> None:
    texts = [
        "user: parse the file",
        "assistant: parsed it",
        "user: parser bug",
        "assistant: fixed the bug",
        "",
    ]
    rows = TreeRows.of(TreeRow(str(i), 0, text, "Bug" if i == 1 else None) for i, text in enumerate(texts))
    for query in ["p", "pa", "pars", "parse", "parser", "parse bug", "parse", "bug", "bug p", "", "x", "bu"]:
        words = search_words(query)
        expected = [i for i, row in enumerate(rows) if matches(words, search_text(row.text, row.label))]
        assert rows.find(query) == expected, query

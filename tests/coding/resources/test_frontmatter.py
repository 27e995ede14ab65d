"""The frontmatter YAML subset: what it accepts means what YAML means; the rest is a located error."""

from __future__ import annotations

import pytest

from tau_coding.resources.frontmatter import (
    FrontmatterError,
    FrontmatterValue,
    parse_frontmatter,
    split_frontmatter,
)

ACCEPTED: list[tuple[str, str, dict[str, FrontmatterValue]]] = [
    ("plain", "name: pdf-tools\ndescription: Works with PDFs.", {"name": "pdf-tools", "description": "Works with PDFs."}),
    ("comment after plain", "a: value # note", {"a": "value"}),
    ("hash inside a word", "a: C# and F#", {"a": "C# and F#"}),
    ("comments and blanks", "# top\n\na: 1\n  # indented comment\nb: 2", {"a": "1", "b": "2"}),
    ("continued plain", "d: first line\n  second line\n\n  new paragraph", {"d": "first line second line\nnew paragraph"}),
    ("double quoted", 'a: "x: y # not a comment"', {"a": "x: y # not a comment"}),
    ("escapes", r'a: "tab\there \"q\" \u00e9 \\ \x41"', {"a": 'tab\there "q" é \\ A'}),
    ("single quoted", "a: 'it''s: fine'", {"a": "it's: fine"}),
    ("quoted then comment", "a: 'v' # c", {"a": "v"}),
    ("empty value", "a:\nb: x", {"a": "", "b": "x"}),
    ("empty at end", "a:", {"a": ""}),
    ("empty quoted", 'a: ""', {"a": ""}),
    ("literal", "a: |\n  one\n    two\n\n  three\nb: x", {"a": "one\n  two\n\nthree\n", "b": "x"}),
    ("literal strip", "a: |-\n  one\n\n", {"a": "one"}),
    ("literal keep", "a: |+\n  one\n\n\nb: x", {"a": "one\n\n\n", "b": "x"}),
    ("folded", "a: >\n  one\n  two\n\n  three\n", {"a": "one two\nthree\n"}),
    ("folded strip", "a: >-\n  one\n  two", {"a": "one two"}),
    ("folded more-indented", "a: >\n  one\n    code\n  two\n", {"a": "one\n  code\ntwo\n"}),
    ("block list", "t:\n  - a\n  - 'b c'\n  - \"d\"", {"t": ("a", "b c", "d")}),
    ("unindented list", "t:\n- a\n- b\nn: 1", {"t": ("a", "b"), "n": "1"}),
    ("flow list", 't: [a, "b, c", \'d\'] # c', {"t": ("a", "b, c", "d")}),
    ("empty flow list", "t: []", {"t": ()}),
    ("nested map", 'm:\n  author: me\n  version: "1.0"\nx: y', {"m": {"author": "me", "version": "1.0"}, "x": "y"}),
    ("dotted key", "a.b_c-d: v", {"a.b_c-d": "v"}),
]  # fmt: skip


@pytest.mark.parametrize(("label", "block", "expected"), ACCEPTED, ids=[case[0] for case in ACCEPTED])
def test_accepted_subset(label: str, block: str, expected: dict[str, FrontmatterValue]) -> None:
    assert parse_frontmatter(block) == expected


REJECTED = [
    ("colon in plain value", "a: b: c", 2, "put the value in quotes"),
    ("anchor", "a: &x 1", 2, "unsupported YAML syntax"),
    ("alias", "a: *x", 2, "unsupported YAML syntax"),
    ("tag", "a: !!str 1", 2, "unsupported YAML syntax"),
    ("flow map", "a: {b: 1}", 2, "unsupported YAML syntax"),
    ("indented key", "  a: 1", 2, "unexpected indentation"),
    ("no space after colon", "a:1", 2, "expected 'key: value'"),
    ("quoted key", '"a": 1', 2, "expected 'key: value'"),
    ("duplicate", "a: 1\nb: 2\na: 3", 4, "duplicate key 'a'"),
    ("deep nesting", "m:\n  k: v\n    deeper: 1", 4, "nesting deeper than one level"),
    ("unterminated double", 'a: "open', 2, "unterminated double-quoted string"),
    ("unterminated single", "a: 'open", 2, "unterminated single-quoted string"),
    ("text after quote", "a: 'x' y", 2, "after the closing quote"),
    ("unknown escape", r'a: "\q"', 2, r"unknown escape \q"),
    ("short unicode escape", r'a: "\u12"', 2, r"bad \u escape"),
    ("unterminated list", "a: [x, y", 2, "expected ',' or ']'"),
    ("nested flow list", "a: [[x]]", 2, "unsupported YAML syntax"),
    ("indentation indicator", "a: |2\n  x", 2, "unsupported block scalar header"),
    ("tab indentation", "a:\n\t- x", 3, "tabs are not allowed"),
    ("sequence as value", "a: - x", 2, "unsupported YAML syntax"),
    ("nested list item", "t:\n  - a\n    - b", 4, "nested or continued list items"),
    ("ragged block", "a: |\n    x\n  y", 4, "indented less than its first line"),
]


@pytest.mark.parametrize(("label", "block", "line", "fragment"), REJECTED, ids=[case[0] for case in REJECTED])
def test_rejected_with_the_line_of_the_problem(label: str, block: str, line: int, fragment: str) -> None:
    with pytest.raises(FrontmatterError) as caught:
        parse_frontmatter(block)
    assert caught.value.line == line
    assert fragment in str(caught.value) and str(caught.value).startswith(f"line {line}: ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("---\na: 1\n---\nbody\n", ("a: 1", "body\n")),
        ("---  \na: 1\n...\nbody", ("a: 1", "body")),
        ("---\n---\n", ("", "")),
        ("# title\n---\na: 1\n---\n", (None, "# title\n---\na: 1\n---\n")),
        ("----\nx\n", (None, "----\nx\n")),
        ("", (None, "")),
    ],
)
def test_split_finds_the_fenced_block(text: str, expected: tuple[str | None, str]) -> None:
    assert split_frontmatter(text) == expected


def test_unclosed_fence_is_an_error() -> None:
    with pytest.raises(FrontmatterError, match="never closed"):
        split_frontmatter("---\na: 1\nbody\n")

"""A markdown-heavy answer for the streaming benches: every kind of block a model writes.

Sections of a heading, a paragraph with inline markup, a bullet list, a fenced Python block
of 30 lines, a table and a numbered list, repeated. The
plain-word answers the benches stream otherwise exercise only paragraphs, the one block kind
that renders incrementally without help.
"""

from __future__ import annotations


def section(n: int) -> str:
    prose = " ".join(
        f"word{n}_{i}" + (" `code`" if i % 9 == 4 else " **bold**" if i % 13 == 6 else "") for i in range(40)
    )
    bullets = "".join(f"- item {i} of section {n}, with a few more words to wrap\n" for i in range(8))
    code = "".join(
        f"    value_{i} = compute({n}, {i})  # step {i}\n" if i % 5 else f"    if value_{i - 1} > {i}:\n"
        for i in range(1, 29)
    )
    rows = "".join(f"| row {i} | {n * i} | text for the row {i} |\n" for i in range(6))
    steps = "".join(f"{i}. step {i}: run the thing and read what it says\n" for i in range(1, 6))
    return (
        f"## Section {n}\n\n{prose}\n\n{bullets}\n```python\ndef handler_{n}(request):\n{code}    return value_1\n```\n\n"
        f"| name | value | note |\n|---|---|---|\n{rows}\n{steps}\n"
    )


def markdown_answer(sections: int = 12) -> str:
    """About 2,400 characters a section (~600 tokens, 3 s at 200 tokens/s)."""
    return "".join(section(n) for n in range(sections))

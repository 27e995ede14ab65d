"""The approval question's text: the call, why it asks, and the change it would make."""

from __future__ import annotations

from tau_coding.extensions.approval_dialog import PREVIEW_LINES, options_for, title_for
from tau_coding.permissions.approver import ApprovalRequest


def _request(preview: str = "") -> ApprovalRequest:
    return ApprovalRequest(
        "edit", {"path": "a.py"}, "edit: a.py", "edit of a file inside the project", ("Edit(a.py)",), preview
    )


def test_without_a_preview_the_question_is_one_line() -> None:
    assert title_for(_request()) == "Allow edit: a.py? (edit of a file inside the project)"


def test_the_preview_follows_the_question_cut_to_fit_a_small_screen() -> None:
    short = "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"
    assert title_for(_request(short)) == title_for(_request()) + "\n\n" + short.rstrip("\n")
    long = "\n".join(f"+line {n}" for n in range(40))
    lines = title_for(_request(long)).split("\n")[2:]
    assert len(lines) == PREVIEW_LINES
    assert lines[-1] == f"… {40 - PREVIEW_LINES + 1} more lines" and lines[-2] == f"+line {PREVIEW_LINES - 2}"


def test_rules_to_remember_come_as_the_middle_options() -> None:
    assert options_for(_request()) == [
        "Yes, once",
        "Yes, and allow Edit(a.py) for this session",
        "Yes, and add Edit(a.py) to .tau/settings.json",
        "No, and tell the model why",
    ]

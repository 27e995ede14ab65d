"""The ``edit`` tool: exact text replacements in one file, all-or-nothing.

Every edit is located in the original text before anything is written; one failure leaves
the file byte-identical. Files over ``MAX_EDIT_FILE`` are refused before they are read whole. The file's BOM and line endings are kept, bytes that are not valid
UTF-8 survive untouched, and the write is atomic and serialised with other writes to the file.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from tau_agent.atomic_write import atomic_write_bytes
from tau_agent.cancellation import CancellationToken
from tau_agent.tools import AgentTool, AgentToolResult, ToolUpdate
from tau_coding.tools.argument_aliases import renaming
from tau_coding.tools.file_locks import FileLocks
from tau_coding.tools.filetype import SNIFF_BYTES, binary_kind
from tau_coding.tools.paths import display_path, resolve_path, symlink_note
from tau_coding.tools.results import describe_os_error, fail, guarded
from tau_coding.tools.truncate import format_size

_BOM = "\ufeff"
# Editing holds the text several times over (bytes, str, the result, the diff): about 6x the
# file. Beyond this size edit refuses, so one call cannot take gigabytes.
MAX_EDIT_FILE = 32 * 1024 * 1024
_EDIT_ITEM: dict[str, Any] = {
    "type": "object",
    "properties": {
        "oldText": {"type": "string", "description": "Exact text to find; must occur exactly once"},
        "newText": {"type": "string", "description": "Text to put in its place"},
    },
    "required": ["oldText", "newText"],
}
PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {
            "type": "string",
            "description": "Path to the file (relative to the working directory or absolute)",
        },
        "edits": {
            "type": "array",
            "minItems": 1,
            "items": _EDIT_ITEM,
            "description": "Replacements, each located in the original file; they must not overlap",
        },
        "oldText": {"type": "string", "description": "Exact text to find (single-edit form)"},
        "newText": {"type": "string", "description": "Text to put in its place (single-edit form)"},
    },
    "required": ["path"],
}


def _requested_edits(args: dict[str, Any]) -> list[tuple[str, str]] | str:
    """The (oldText, newText) pairs, or a message saying what is wrong with the arguments."""
    edits = args.get("edits")
    single = "oldText" in args or "newText" in args
    if edits is not None and single:
        return "Give either edits or oldText/newText, not both."
    if edits is not None:
        return [(item["oldText"], item["newText"]) for item in edits]
    if "oldText" not in args or "newText" not in args:
        return "Give edits: [{oldText, newText}, ...] (or both oldText and newText)."
    return [(args["oldText"], args["newText"])]


def edit_file(path: Path, shown: str, edits: list[tuple[str, str]], note: str = "") -> AgentToolResult:
    """Read, plan, apply and write; synchronous (run in a worker thread under the file lock)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_EDIT_FILE + 1)
    except OSError as exc:
        return fail(describe_os_error(exc, shown))
    if len(raw) > MAX_EDIT_FILE:
        size = format_size(max(os.path.getsize(path), len(raw)))
        return fail(
            f"Cannot edit {shown}: it is {size}, over the {format_size(MAX_EDIT_FILE)} limit of edit. "
            "Change it with a command instead (sed, a script), or split it."
        )
    kind = binary_kind(raw[:SNIFF_BYTES])
    if kind is not None:
        return fail(f"Cannot edit {shown}: it is a binary file ({kind}).")
    # surrogateescape keeps bytes that are not UTF-8 exactly as they were.
    text = raw.decode("utf-8", errors="surrogateescape")
    bom = text.startswith(_BOM)
    body = text[1:] if bom else text
    # here, not at import: a run that never edits does not load the matcher and difflib
    from tau_coding.tools.diff import first_changed_line, unified_diff
    from tau_coding.tools.edit_match import EditError, apply_replacements, normalize_breaks, plan_edits

    try:
        plans = plan_edits(body, edits, shown)
    except EditError as exc:
        return fail(str(exc))
    updated = apply_replacements(body, plans)
    if updated == body:
        return fail(f"No changes made to {shown}: the replacements produce the same content.")
    data = ((_BOM if bom else "") + updated).encode("utf-8", errors="surrogateescape")
    try:
        atomic_write_bytes(path, data)
    except OSError as exc:
        return fail(f"Could not write {shown}: {describe_os_error(exc, shown)}")
    old_lf, new_lf = normalize_breaks(body), normalize_breaks(updated)
    fuzzy = [plan.index + 1 for plan in plans if plan.fuzzy]
    details = {
        "diff": unified_diff(old_lf, new_lf, shown),
        "firstChangedLine": first_changed_line(old_lf, new_lf),
        "fuzzyEdits": fuzzy,
    }
    what = "Successfully replaced text" if len(plans) == 1 else f"Successfully applied {len(plans)} edits"
    text_out = f"{what} in {shown}{note}."
    if fuzzy:
        which = "the edit" if len(plans) == 1 else "edit " + ", ".join(map(str, fuzzy))
        text_out += (
            f" Note: {which} matched only after ignoring differences in whitespace or quote/dash style;"
            " only the matched text was replaced."
        )
    return AgentToolResult.text(text_out, details)


def create_edit_tool(cwd: Path, locks: FileLocks) -> AgentTool:
    async def execute(
        tool_call_id: str, args: dict[str, Any], signal: CancellationToken, on_update: ToolUpdate
    ) -> AgentToolResult:
        path = resolve_path(cwd, args["path"])
        shown = display_path(cwd, path)
        edits = _requested_edits(args)
        if isinstance(edits, str):
            return fail(edits)
        if os.path.isdir(path):
            return fail(f"{shown} is a directory; edit works on files.")
        if not os.path.exists(path):
            return fail(f"File not found: {shown}. Use write to create a new file.")
        async with locks.hold(path):
            if signal.cancelled:
                return fail(f"Edit of {shown} cancelled before it started; the file is unchanged.")
            return await asyncio.to_thread(edit_file, path, shown, edits, symlink_note(cwd, path))

    return AgentTool(
        name="edit",
        label="Edit",
        description=(
            "Edit a file by replacing exact text. Give edits: [{oldText, newText}, ...] (or a single oldText "
            "and newText). Each oldText must match exactly one place in the original file, including "
            "whitespace; edits must not overlap and are applied together or not at all."
        ),
        parameters=PARAMETERS,
        prepare_arguments=renaming(PARAMETERS),
        execute=guarded("edit", execute),
        prompt_snippet="Make precise edits to files",
        prompt_guidelines=(
            "Use edit for precise changes; oldText must match exactly, including whitespace.",
            "Several changes to one file go in one edit call as several edits.",
        ),
    )

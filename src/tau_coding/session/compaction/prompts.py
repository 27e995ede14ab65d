"""What the summariser is asked. Pure text builders.

The conversation is wrapped in ``<conversation>`` tags and the system prompt says it is
material to summarise, so a model does not carry on the conversation instead. An earlier
summary is handed over as ``<previous-summary>`` with an instruction to update it, so facts
from before the latest compaction are kept rather than summarised away a second time.
"""

from __future__ import annotations

SYSTEM_PROMPT = (
    "You write handover notes for a coding assistant whose conversation has grown too long. "
    "You are given part of that conversation as a transcript. Do not answer it, do not continue it "
    "and do not call tools: reply with the notes only, in the format you are asked for."
)

SECTIONS = """Use exactly these Markdown sections, each brief and concrete:

## Goal
What the user wants, in one to three sentences.

## Constraints & Preferences
Requirements and wishes the user stated (style, tools, things to avoid). "(none)" if none.

## Progress
### Done
- finished work, with file paths and function names
### In Progress
- what was being worked on when the transcript ends
### Blocked
- open problems and errors not yet solved

## Key Decisions
- **decision**: why it was taken

## Next Steps
1. what should happen next, in order

## Critical Context
Exact values the work depends on: error messages, commands, identifiers, numbers, snippets."""

INITIAL = (
    "Write handover notes for the conversation above so that the work can continue without it.\n\n" + SECTIONS
)

UPDATE = (
    "The <previous-summary> holds the notes written for the conversation before this transcript. "
    "Update them with what the new transcript adds: keep every fact from the previous notes that is "
    "still true, move finished items to Done, replace outdated Next Steps, and add new decisions and "
    "context. Do not drop information just because the new transcript does not repeat it.\n\n" + SECTIONS
)

TURN_PREFIX = (
    "The transcript above is the beginning of one long turn whose end is still in the "
    "conversation the assistant keeps. Summarise only what that beginning established so the end "
    "makes sense on its own:\n\n## Request\nWhat the user asked in this turn.\n\n## Early Progress\n"
    "- what was read, tried and found, with paths\n\n## Context for the Rest\nExact values the later "
    "part of the turn relies on. If a <previous-summary> is given, extend those notes with this "
    "part of the turn."
)

BRANCH = (
    "The transcript above is a branch of the conversation the user has now left to work elsewhere. "
    "Summarise what was tried there, so the assistant can use what was learnt:\n\n## Goal\n"
    "What this branch was trying to do.\n\n## What Happened\n- steps taken and their results, with "
    "paths\n\n## Outcome\nWhere the branch stopped: finished, abandoned, or failed, and why if known.\n\n"
    "## Worth Keeping\nFindings, values and decisions useful on the new path."
)


def summary_request(
    conversation: str,
    instruction: str,
    *,
    previous_summary: str | None = None,
    custom_instructions: str | None = None,
) -> str:
    """The user message of one summarising request."""
    parts = [f"<conversation>\n{conversation}\n</conversation>"]
    if previous_summary:
        parts.append(f"<previous-summary>\n{previous_summary}\n</previous-summary>")
    parts.append(instruction)
    if custom_instructions and custom_instructions.strip():
        parts.append(f"Additional focus requested by the user: {custom_instructions.strip()}")
    return "\n\n".join(parts)


def merge_turn_prefix(history_summary: str, prefix_summary: str) -> str:
    """A split turn's two summaries as one."""
    if not history_summary.strip():
        return "## Beginning of the current turn\n\n" + prefix_summary
    return f"{history_summary}\n\n---\n\n## Beginning of the current turn\n\n{prefix_summary}"


__all__ = [
    "BRANCH",
    "INITIAL",
    "SYSTEM_PROMPT",
    "TURN_PREFIX",
    "UPDATE",
    "merge_turn_prefix",
    "summary_request",
]

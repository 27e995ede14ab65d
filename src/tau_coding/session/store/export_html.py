"""Self-contained HTML export of a whole session tree (Pi's ``--export`` / ``/export``).

One file, no network: styles, the script and images are inline, Markdown images are links,
and a Content-Security-Policy forbids every load from elsewhere. The sidebar lists every
entry as a tree (indented where the conversation branches, oldest child first, labels
shown, the active leaf marked); the main pane shows the path from the root to the selected
entry, the active path at first. A search box filters the tree; clicking an entry shows
its path. Tool outputs are collapsible, code is highlighted. Without JavaScript the page
still shows the active path.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from html import escape
from importlib import resources

from tau_agent.content import ToolCall
from tau_agent.session.entries import SessionEntry, SessionHeader, is_leaf_marker
from tau_agent.session.state import SessionState
from tau_agent.session.stats import session_stats
from tau_agent.session.tree import SessionTree
from tau_coding.session.store.entry_line import describe
from tau_coding.session.store.export_render import highlight_css, render_entry

TITLE_CHARS = 90


def tree_rows(tree: SessionTree) -> list[tuple[SessionEntry, int]]:
    """Every entry (leaf markers aside) with its indent, depth first, children in file order.

    The indent grows only where an entry has more than one child, so a long linear stretch
    stays flush left. Iterative: a 100k-deep chain does not touch the recursion limit.
    """
    rows: list[tuple[SessionEntry, int]] = []
    stack: list[tuple[SessionEntry, int]] = [(root, 0) for root in reversed(tree.roots())]
    while stack:
        entry, indent = stack.pop()
        if is_leaf_marker(entry):
            continue
        rows.append((entry, indent))
        children = [c for c in tree.children(entry.id) if not is_leaf_marker(c)]
        step = 1 if len(children) > 1 else 0
        stack.extend((child, indent + step) for child in reversed(children))
    return rows


def _asset(name: str) -> str:
    return (resources.files(__package__) / name).read_text(encoding="utf-8")


def content_security_policy(script: str) -> str:
    """Nothing from the network; only the page's own script (by hash), inline styles, data: images."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (
        "default-src 'none'; "
        f"script-src 'sha256-{digest}'; "
        "style-src 'unsafe-inline'; "
        "img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )


def session_html(header: SessionHeader, entries: Sequence[SessionEntry], state: SessionState) -> str:
    """The page for a session whose replay at its active leaf is ``state``."""
    tree = SessionTree(entries)
    on_path = {e.id for e in tree.path(state.leaf_id)}
    calls: dict[str, ToolCall] = {}
    tree_items: list[str] = []
    sections: list[str] = []
    rows = tree_rows(tree)
    for entry, indent in rows:
        eid = escape(entry.id)
        css = "on-path" if entry.id in on_path else ""
        label = state.labels.get(entry.id)
        badge = f'<span class="label">{escape(label)}</span> ' if label else ""
        active = ' <span class="active">← active</span>' if entry.id == state.leaf_id else ""
        line = describe(entry) or ""
        tree_items.append(
            f'<li class="{css}" style="--indent:{indent}" data-id="{eid}" title="{escape(line)}">'
            f'{badge}<a href="#e-{eid}">{escape(line)}</a>{active}</li>'
        )
        kind, body = render_entry(entry, calls)
        parent = escape(entry.parent_id or "")
        hidden = "" if entry.id in on_path else " hidden"
        sections.append(
            f'<section id="e-{eid}" class="entry {kind}{hidden}" data-id="{eid}" data-parent="{parent}">'
            f'<div class="who">{escape(kind)} {badge}<span class="dim">{escape(entry.timestamp)}</span></div>'
            f"{body}</section>"
        )
    stats = session_stats(entries)
    first = next((t for t in (describe(e) or "" for e, _ in rows) if t.startswith("user: ")), "")
    title = state.name or first.removeprefix("user: ")[:TITLE_CHARS] or f"Session {header.id}"
    model = f"{state.model.provider}/{state.model.model_id}" if state.model else "unknown model"
    facts = (
        f"{escape(header.cwd)} · started {escape(header.timestamp)} · {escape(model)} · "
        f"{stats.total_messages} messages · {stats.tool_calls} tool calls · "
        f"{stats.spent.total_tokens} tokens · ${stats.spent.cost:.4f}"
    )
    script = _asset("export.js")
    return (
        "<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
        f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy(script)}">'
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_asset('export.css')}\n{highlight_css()}</style></head>"
        f'<body data-leaf="{escape(state.leaf_id or "")}">'
        f'<header><h1>{escape(title)}</h1><div class="dim">{facts}</div></header>'
        '<div class="layout"><nav><input type="search" id="search" placeholder="Search entries…" '
        f'aria-label="Search entries"><ul id="tree">{"".join(tree_items)}</ul></nav>'
        f'<main id="entries">{"".join(sections)}</main></div>'
        f"<script>{script}</script></body></html>\n"
    )


__all__ = ["content_security_policy", "session_html", "tree_rows"]

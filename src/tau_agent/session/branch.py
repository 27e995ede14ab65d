"""A branch of a session as a new session holds it: what ``/fork`` and ``clone`` copy.

``branch`` gives the path to a leaf (without label entries and leaf markers) followed by
fresh label entries for the labelled entries on it. A fork of a long session keeps most of
its source, so the copy's index and replay are made from the source's where they cover it
(``Branch.tree``, ``Branch.replay``): the index copied at C speed when the source never
branched, the replay cut from the source's last one when the fork's leaf is on that
replay's path. Otherwise they are None and the new session builds its own, as on opening
a file; either way it ends up with what building them would give (tests hold the two
ways to equal results).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from operator import attrgetter, is_not

import msgspec

from tau_agent.session.entries import (
    CompactionEntry,
    CustomEntry,
    LabelEntry,
    SessionEntry,
    SessionInfoEntry,
    is_leaf_marker,
    new_entry_id,
)
from tau_agent.session.state import (
    SessionState,
    answer_cut_short,
    collect_labels_and_name,
    settings_on_path,
)
from tau_agent.session.tree import SessionTree

_ID = attrgetter("id")


@dataclass(frozen=True, slots=True)
class Branch:
    """``entries``: what the new session holds, in file order. ``tree``: a SessionTree of
    exactly those entries, or None. ``replay``: their replay at the last of them (labels and
    name aside), or None. ``labels_and_name``: what ``collect_labels_and_name`` of the entries
    gives, or None."""

    entries: list[SessionEntry]
    tree: SessionTree | None = None
    replay: SessionState | None = None
    labels_and_name: tuple[dict[str, str], str | None] | None = None  # as entries collect them


def branch(
    tree: SessionTree, leaf_id: str | None, labels: Mapping[str, str], replayed: SessionState | None = None
) -> Branch:
    """The branch of the session indexed by ``tree`` at ``leaf_id`` (None: nothing), its
    ``labels`` kept; ``replayed`` is a replay of this session made earlier (any leaf), from
    which the branch's is cut when it covers it."""
    path = tree.path(leaf_id) if leaf_id is not None else []
    replay = _cut(tree, replayed, path)
    kinds = set(map(type, path))
    rewired = LabelEntry in kinds or CustomEntry in kinds
    if rewired:
        kept = _without_labels(path)
        rewired = len(kept) != len(path) or any(map(is_not, kept, path))
        path = kept
        if rewired and CompactionEntry in kinds:
            replay = None  # its first kept entry may be one left out: the copy's replay differs
    out = path
    index = None if rewired else tree.chain_prefix(leaf_id)
    name = collect_labels_and_name(path)[1] if SessionInfoEntry in kinds else None
    kept_labels: dict[str, str] = {}
    if labels:
        ids = set(map(_ID, path))
        out = list(path)
        parent = path[-1].id if path else None
        for target, label in labels.items():
            if target in ids:
                new_id = new_entry_id(ids.__contains__)
                ids.add(new_id)
                entry = LabelEntry(id=new_id, parent_id=parent, target_id=target, label=label)
                out.append(entry)
                kept_labels[target] = label
                if index is not None:
                    index.add(entry)
                parent = new_id
    if replay is not None:
        replay.leaf_id = out[-1].id if out else None
    return Branch(out, index, replay, (kept_labels, name))


def _cut(tree: SessionTree, replayed: SessionState | None, path: list[SessionEntry]) -> SessionState | None:
    """The replay at the end of ``path``, cut from ``replayed`` when ``path`` is a prefix of
    its path and none of what is cut off is a compaction (which would change what stands
    before it); else None."""
    if replayed is None:
        return None
    full = tree.path(replayed.leaf_id)
    keep = len(path)
    if keep > len(full) or (keep and full[keep - 1] is not path[-1]):
        return None
    cut_off = full[keep:]
    if CompactionEntry in set(map(type, cut_off)):
        return None
    dropped = set(map(_ID, cut_off))
    ids = replayed.message_entry_ids
    end = len(ids)
    while end and (ids[end - 1] is None or ids[end - 1] in dropped):
        end -= 1
    settings = settings_on_path(path)
    state = SessionState(
        messages=replayed.messages[:end],
        message_entry_ids=ids[:end],
        model=settings.model,
        thinking_level=settings.thinking_level,
        # each repaired call has a result with no entry; few of them are in the part cut off
        repaired_tool_calls=replayed.repaired_tool_calls - ids[end:].count(None),
    )
    answer_cut_short(state)
    return state


def _without_labels(path: list[SessionEntry]) -> list[SessionEntry]:
    """``path`` without its label entries and leaf markers, each entry that hung from one
    hanging from the entry kept before it instead (a copy: the source's entry is not changed).
    Without that, the copy's next message would name a parent it does not hold, and a reader
    would stop there."""
    kept: list[SessionEntry] = []
    for entry in path:
        if isinstance(entry, LabelEntry) or is_leaf_marker(entry):
            continue
        parent = kept[-1].id if kept else None
        kept.append(entry if entry.parent_id == parent else msgspec.structs.replace(entry, parent_id=parent))
    return kept


__all__ = ["Branch", "branch"]

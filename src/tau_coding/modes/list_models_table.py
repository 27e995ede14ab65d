"""The built-in catalogue's rows of ``tau --list-models --all`` (``list_models.table_rows``),
precomputed into ``list_models_table.tsv`` (by ``scripts/regenerate_list_table.py``): listing
them needs no ``Model`` objects. Used when there is no models.json.

A data file, not a Python tuple: a thousand rows of literals cost more to compile, when the
bytecode cache is missing or off, than to split, and they are data, not code."""

from __future__ import annotations

import os

TABLE = os.path.join(os.path.dirname(__file__), "list_models_table.tsv")


def builtin_rows() -> list[tuple[str, str, str, str, str, str]]:
    """The rows: provider, model, context, max out, thinking, images (one tab-separated line each)."""
    with open(TABLE, encoding="utf-8") as table:
        lines = table.read().splitlines()
    return [(p, m, c, o, t, i) for p, m, c, o, t, i in (line.split("\t") for line in lines)]

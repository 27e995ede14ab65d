"""Regenerate src/tau_coding/modes/list_models_table.tsv: the built-in catalogue as
``tau --list-models --all`` prints it, precomputed.

Usage: ``python scripts/regenerate_list_table.py`` (after any change to the catalogue:
src/tau_ai/catalog/*.py or generated.json; tests/coding/modes/test_list_models_table.py fails
until it is run). Listing the catalogue then splits these lines instead of building a
``Model`` for each of ~1000 rows (and importing dataclasses, json and pathlib to do so).
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "tau_coding" / "modes" / "list_models_table.tsv"


def render(rows: list[tuple[str, ...]]) -> str:
    """The file's text: one tab-separated line a row."""
    return "".join("\t".join(row) + "\n" for row in rows)


def main() -> int:
    sys.path.insert(0, str(OUT.parents[2]))
    from tau_ai.catalog import builtin_models
    from tau_coding.modes.list_models import table_rows

    rows = table_rows(builtin_models())
    if any("\t" in cell or "\n" in cell for row in rows for cell in row):
        raise SystemExit("regenerate_list_table: a cell holds a tab or a line break")
    tmp = OUT.with_suffix(".tsv.tmp")
    tmp.write_text(render(rows), encoding="utf-8")
    tmp.replace(OUT)
    print(f"wrote {len(rows)} rows to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``tau --list-models [search] --all``: the catalogue table, with as little work as possible.

Without a models.json (which may add or change any row) the built-in catalogue's rows come
precomputed (``modes/list_models_table.tsv``): no ``Model`` is built and neither pathlib, json
nor dataclasses is imported. With one, ``cli_dispatch.list_catalogue`` merges it as ever.
Only ``os`` and ``sys`` are imported here.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~10 ms); mypy knows the name
if TYPE_CHECKING:
    from collections.abc import Mapping


def models_file(environ: Mapping[str, str]) -> str:
    """The user's models.json, where ``TauPaths.from_env(environ, ...).models_file`` finds it."""
    configured = environ.get("TAU_HOME")
    home = environ.get("HOME") or os.path.expanduser("~")
    tau_home = os.path.expanduser(configured) if configured else os.path.join(home, ".tau")
    return os.path.join(tau_home, "models.json")


def list_catalogue(search: str) -> int:
    """Print the table of every known model matching ``search``; always 0."""
    if os.path.exists(models_file(os.environ)):
        from tau_coding.app.cli_dispatch import list_catalogue as with_models_file

        return with_models_file(search)
    from tau_coding.modes.list_models import print_rows
    from tau_coding.modes.list_models_table import builtin_rows

    return print_rows(search, builtin_rows(), sys.stdout)

"""The first start after an update: one line naming the new version, remembered in settings.json.

Pi keeps the version whose changelog the user last saw as ``lastChangelogVersion`` in the user's
settings; Tau does the same, so a Pi-made file means the same. A first start ever records the
version silently; a failure to read or write the file costs the notice, never the start.
"""

from __future__ import annotations

from pathlib import Path

from tau_coding.common.changelog import update_notice
from tau_coding.config.settings import read_json_object
from tau_coding.config.settings_update import update_settings


def changelog_notice(settings_file: Path, version: str) -> str | None:
    """The update line to show (None: nothing new); records ``version`` as seen."""
    last_seen = read_json_object(settings_file, []).get("lastChangelogVersion")
    if last_seen == version:
        return None
    update_settings(settings_file, {"lastChangelogVersion": version})
    return update_notice(last_seen, version)

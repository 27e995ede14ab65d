"""The settings the /settings editor offers: each row's key, label, choices and shown value.

Pure data and functions, no Textual. ``EDITABLE`` lists the common settings in the order shown;
``choices`` of None means the editor asks the app (themes, models). Values are stored as JSON
(``true``/``false`` for switches); ``shown`` reads a row's current value from the effective
settings (``port.settings()``'s flattened rows) and the session's live state, and
``parse_choice`` turns a picked choice back into the value to store.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

SWITCH = ("true", "false")


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """One editable setting. ``default`` is what an absent key means, as shown."""

    key: str
    label: str
    choices: tuple[str, ...] | None
    default: str


EDITABLE: tuple[SettingSpec, ...] = (
    SettingSpec("theme", "Theme", None, "dark"),
    SettingSpec("defaultModel", "Model (default)", None, ""),
    SettingSpec(
        "defaultThinkingLevel", "Thinking level", ("off", "minimal", "low", "medium", "high", "xhigh"), "off"
    ),
    SettingSpec("permissions.defaultMode", "Permission mode", ("ask", "accept-edits", "plan", "yolo"), "ask"),
    SettingSpec("compaction.enabled", "Auto-compaction", SWITCH, "true"),
    SettingSpec("retry.enabled", "Auto-retry", SWITCH, "true"),
    SettingSpec("hideThinkingBlock", "Hide thinking blocks", SWITCH, "true"),
    SettingSpec("doubleEscapeAction", "Esc Esc opens", ("tree", "fork", "rewind", "none"), "tree"),
    SettingSpec("steeringMode", "Steering (Enter)", ("one-at-a-time", "all"), "one-at-a-time"),
    SettingSpec("followUpMode", "Follow-ups (Alt+Enter)", ("one-at-a-time", "all"), "one-at-a-time"),
    SettingSpec("autoTitle", "Automatic session titles", SWITCH, "true"),
    SettingSpec("quietStartup", "Quiet start-up", SWITCH, "false"),
    SettingSpec(
        "treeFilterMode",
        "/tree filter",
        ("default", "no-tools", "user-only", "labeled-only", "all"),
        "default",
    ),
    SettingSpec("terminal.showImages", "Show images inline", SWITCH, "true"),
    SettingSpec("images.autoResize", "Shrink large images", SWITCH, "true"),
    SettingSpec("images.blockImages", "Never send images", SWITCH, "false"),
)
BY_KEY = {spec.key: spec for spec in EDITABLE}


@dataclass(frozen=True, slots=True)
class LiveState:
    """What the session runs with now, which wins over the stored default where it applies."""

    theme: str
    model_label: str
    thinking_level: str
    permission_mode: str | None


def shown(spec: SettingSpec, settings: Mapping[str, str], live: LiveState) -> str:
    """The value a row shows: the live one for theme, model, thinking and permission mode, else
    the effective setting (JSON's ``True`` shown as ``true``), else the default."""
    if spec.key == "theme":
        return live.theme
    if spec.key == "defaultModel":
        return live.model_label
    if spec.key == "defaultThinkingLevel":
        return live.thinking_level
    if spec.key == "permissions.defaultMode" and live.permission_mode is not None:
        return live.permission_mode
    value = settings.get(spec.key)
    if value is None:
        return spec.default
    return value.lower() if value in ("True", "False") else value


def parse_choice(spec: SettingSpec, choice: str) -> object:
    """The JSON value to store for ``choice`` (a switch's ``true`` becomes True)."""
    if spec.choices == SWITCH:
        return choice == "true"
    return choice


def saved_changes(spec: SettingSpec, value: object) -> dict[str, object]:
    """The settings.json keys a choice writes (a model is a provider and an id)."""
    if spec.key == "defaultModel" and isinstance(value, str) and "/" in value:
        provider, _, model_id = value.partition("/")
        return {"defaultProvider": provider, "defaultModel": model_id}
    return {spec.key: value}


def row_text(label: str, value: str, width: int = 25) -> str:
    return f"{label:<{width}} {value}"

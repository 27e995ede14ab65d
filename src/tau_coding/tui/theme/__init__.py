"""Tau's themes and stylesheet."""

from __future__ import annotations

from textual.theme import Theme

TAU_DARK = Theme(
    name="tau-dark",
    primary="#7aa2f7",
    secondary="#bb9af7",
    accent="#e0af68",
    warning="#e0af68",
    error="#f7768e",
    success="#9ece6a",
    foreground="#c0caf5",
    background="#1a1b26",
    surface="#1f2335",
    panel="#24283b",
    dark=True,
)

TAU_LIGHT = Theme(
    name="tau-light",
    primary="#2e59a8",
    secondary="#7847bd",
    accent="#8f5e15",
    warning="#8f5e15",
    error="#bb2d47",  # 4.8:1 on the surface, 5.4:1 on the background
    success="#33635c",
    foreground="#343b58",
    background="#f5f5f7",
    surface="#e9e9ed",
    panel="#dcdde3",
    dark=False,
)

# Pure black and white with saturated accents: for low vision, bright rooms and poor terminals.
TAU_HIGH_CONTRAST = Theme(
    name="tau-high-contrast",
    primary="#00ffff",
    secondary="#ff00ff",
    accent="#ffff00",
    warning="#ffff00",
    error="#ff3030",
    success="#00ff00",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#1a1a1a",
    dark=True,
    variables={"text-muted": "#d0d0d0", "border": "#ffffff"},
)

THEMES = (TAU_DARK, TAU_LIGHT, TAU_HIGH_CONTRAST)

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
    error="#c4304b",
    success="#33635c",
    foreground="#343b58",
    background="#f5f5f7",
    surface="#e9e9ed",
    panel="#dcdde3",
    dark=False,
)

THEMES = (TAU_DARK, TAU_LIGHT)

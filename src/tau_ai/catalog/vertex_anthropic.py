"""Anthropic's Claude models on Google Vertex AI (rawPredict). Prices: US dollars per million tokens.

Vertex names the models with an ``@`` version; each shares its facts (windows, reasoning, images,
Anthropic's list prices, which are Vertex's on the global endpoint) with the Anthropic row it
names, so they are taken from there. There is no API key: Vertex signs in with Google credentials
(``api_key_env`` empty).
"""

from __future__ import annotations

from tau_ai.catalog.anthropic import ANTHROPIC
from tau_ai.catalog.rows import ProviderRows, Row

# Vertex's id -> the id of the same model in Anthropic's rows
SAME_AS = (
    ("claude-opus-4-5@20251101", "claude-opus-4-5"),
    ("claude-sonnet-4-5@20250929", "claude-sonnet-4-5"),
    ("claude-haiku-4-5@20251001", "claude-haiku-4-5"),
    ("claude-opus-4-1@20250805", "claude-opus-4-1"),
    ("claude-sonnet-4@20250514", "claude-sonnet-4-0"),
)


def _on_vertex(vertex_id: str, anthropic_id: str) -> Row:
    row = next(row for row in ANTHROPIC.rows if row[0] == anthropic_id)
    return (vertex_id, f"{row[1]} (Vertex)", *row[2:])


VERTEX_ANTHROPIC = ProviderRows(
    provider="google-vertex-anthropic",
    api="anthropic-vertex",
    base_url="https://{location}-aiplatform.googleapis.com",
    api_key_env="",
    rows=tuple(_on_vertex(vertex_id, anthropic_id) for vertex_id, anthropic_id in SAME_AS),
)

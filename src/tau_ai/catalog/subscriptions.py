"""Models reached through a subscription login (``tau login``): ChatGPT's Codex backend,
GitHub Copilot and Gemini through Cloud Code Assist (the Gemini CLI's login). Subscriptions are
not billed per token, so prices are the API's list prices for Codex (an estimate of the usage's
worth) and zero for Copilot and Code Assist (``unpriced``)."""

from __future__ import annotations

from tau_ai.catalog.rows import ProviderRows, Row

COPILOT_BASE_URL = "https://api.individual.githubcopilot.com"
# The editor headers Copilot requires (of its login's token exchange too)...
COPILOT_EDITOR_HEADERS = {
    "User-Agent": "GitHubCopilotChat/0.35.0",
    "Editor-Version": "vscode/1.107.0",
    "Editor-Plugin-Version": "copilot-chat/0.35.0",
    "Copilot-Integration-Id": "vscode-chat",
}
# ...and, on model requests, the intent of an agent's requests.
COPILOT_HEADERS = {**COPILOT_EDITOR_HEADERS, "Openai-Intent": "conversation-edits"}

# id, name, reasoning, images, context window, max output, input, output, cache read, cache write
OPENAI_CODEX = ProviderRows(
    provider="openai-codex",
    api="openai-codex-responses",
    base_url="https://chatgpt.com/backend-api",
    api_key_env="",
    rows=(
        ("gpt-5.5", "GPT-5.5 (Codex)", True, True, 272_000, 128_000, 5.0, 30.0, 0.5, 0.0),
        ("gpt-5.4", "GPT-5.4 (Codex)", True, True, 272_000, 128_000, 2.5, 15.0, 0.25, 0.0),
        ("gpt-5.4-mini", "GPT-5.4 mini (Codex)", True, True, 272_000, 128_000, 0.75, 4.5, 0.075, 0.0),
        ("gpt-5.3-codex", "GPT-5.3 Codex", True, True, 272_000, 128_000, 1.75, 14.0, 0.175, 0.0),
        ("gpt-5.2", "GPT-5.2 (Codex)", True, True, 272_000, 128_000, 1.75, 14.0, 0.175, 0.0),
        ("gpt-5.2-codex", "GPT-5.2 Codex", True, True, 272_000, 128_000, 1.75, 14.0, 0.175, 0.0),
        ("gpt-5.1", "GPT-5.1 (Codex)", True, True, 272_000, 128_000, 1.25, 10.0, 0.125, 0.0),
        ("gpt-5.1-codex-max", "GPT-5.1 Codex Max", True, True, 272_000, 128_000, 1.25, 10.0, 0.125, 0.0),
        ("gpt-5.1-codex-mini", "GPT-5.1 Codex mini", True, True, 272_000, 128_000, 0.25, 2.0, 0.025, 0.0),
    ),
)


def unpriced(rows: tuple[tuple[str, str, bool, bool, int, int], ...]) -> tuple[Row, ...]:
    """Rows of a subscription that bills nothing per token: every price 0."""
    return tuple((*row, 0.0, 0.0, 0.0, 0.0) for row in rows)


def _copilot(api: str, rows: tuple[tuple[str, str, bool, bool, int, int], ...]) -> ProviderRows:
    return ProviderRows(
        provider="github-copilot",
        api=api,
        base_url=COPILOT_BASE_URL,
        api_key_env="",
        rows=unpriced(rows),
        headers=COPILOT_HEADERS,
        compat={"bearerAuth": True} if api == "anthropic-messages" else {},
    )


# id, name, reasoning, images, context window, max output
COPILOT_CLAUDE = _copilot(
    "anthropic-messages",
    (
        ("claude-sonnet-4.5", "Claude Sonnet 4.5 (Copilot)", True, True, 144_000, 32_000),
        ("claude-sonnet-4", "Claude Sonnet 4 (Copilot)", True, True, 216_000, 16_000),
        ("claude-opus-4.5", "Claude Opus 4.5 (Copilot)", True, True, 160_000, 32_000),
        ("claude-haiku-4.5", "Claude Haiku 4.5 (Copilot)", True, True, 144_000, 32_000),
    ),
)
COPILOT_RESPONSES = _copilot(
    "openai-responses",
    (
        ("gpt-5.1", "GPT-5.1 (Copilot)", True, True, 264_000, 64_000),
        ("gpt-5.1-codex", "GPT-5.1 Codex (Copilot)", True, True, 400_000, 128_000),
        ("gpt-5", "GPT-5 (Copilot)", True, True, 128_000, 128_000),
        ("gpt-5-mini", "GPT-5 mini (Copilot)", True, True, 264_000, 64_000),
    ),
)
COPILOT_CHAT = _copilot(
    "openai-completions",
    (
        ("gpt-4.1", "GPT-4.1 (Copilot)", False, True, 128_000, 16_384),
        ("gpt-4o", "GPT-4o (Copilot)", False, True, 128_000, 4_096),
        ("gemini-2.5-pro", "Gemini 2.5 Pro (Copilot)", False, True, 128_000, 64_000),
        ("grok-code-fast-1", "Grok Code Fast 1 (Copilot)", True, False, 128_000, 64_000),
    ),
)

GEMINI_CLI = ProviderRows(
    provider="google-gemini-cli",
    api="google-gemini-cli",
    base_url="https://cloudcode-pa.googleapis.com",
    api_key_env="",
    rows=unpriced(
        (
            ("gemini-2.5-pro", "Gemini 2.5 Pro (Code Assist)", True, True, 1_048_576, 65_536),
            ("gemini-2.5-flash", "Gemini 2.5 Flash (Code Assist)", True, True, 1_048_576, 65_536),
            ("gemini-3-pro-preview", "Gemini 3 Pro Preview (Code Assist)", True, True, 1_048_576, 65_536),
        )
    ),
)

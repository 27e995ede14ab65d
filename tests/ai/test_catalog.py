"""The built-in catalogue: complete, valid, at least Pi's coverage, hand-written rows first."""

from __future__ import annotations

import subprocess
import sys

from tau_ai.apis import MODULES, PLANNED, unsupported_api
from tau_ai.apis.openai_completions.compat import host_record
from tau_ai.catalog import API_KEY_ENV, PROVIDERS, builtin_models, find_model
from tau_ai.catalog.generated import read_catalogue
from tau_ai.models_config import API_NAMES

# Cloud platforms whose credentials are not one API key variable (AWS chain, ADC).
# Subscription logins (tau login) and cloud platforms authenticate their own way, not by a key variable.
_OWN_CREDENTIALS = {
    "amazon-bedrock",
    "google-vertex-anthropic",
    "openai-codex",
    "github-copilot",
    "google-gemini-cli",
}
# Their base URL depends on the user's resource, so the catalogue leaves it empty.
_URL_FROM_SETTINGS = {"azure-openai-responses"}


def test_every_model_is_complete_valid_and_unique() -> None:
    models = builtin_models()
    assert len({(m.provider, m.id) for m in models}) == len(models)
    for m in models:
        assert m.api in API_NAMES or m.api in PLANNED, m
        assert m.base_url.startswith("https://") or (m.api in _URL_FROM_SETTINGS and not m.base_url), m
        assert m.id and m.name and m.context_window > 0 and 0 < m.max_tokens <= m.context_window, m
        assert min(m.cost.input, m.cost.output, m.cost.cache_read, m.cost.cache_write) >= 0, m
        assert set(m.input) <= {"text", "image"} and "text" in m.input, m


def test_the_main_providers_and_the_subscription_logins_are_there() -> None:
    providers = {m.provider for m in builtin_models()}
    expected = {
        "openai",
        "anthropic",
        "google",
        "mistral",
        "xai",
        "groq",
        "deepseek",
        "openrouter",
        "cerebras",
        "openai-codex",
        "github-copilot",
        "google-gemini-cli",
    }
    assert expected <= providers


def test_the_catalogue_covers_every_provider_and_model_count_of_pi() -> None:
    data = read_catalogue()
    pi_counts: dict[str, int] = data["pi_counts"]
    assert data["source"].startswith("@mariozechner/pi-ai@")
    assert sum(pi_counts.values()) >= 969 and len(pi_counts) >= 31
    ours: dict[str, int] = {}
    for m in builtin_models():
        ours[m.provider] = ours.get(m.provider, 0) + 1
    for provider, count in pi_counts.items():
        if provider not in data["skipped"]:
            assert ours.get(provider, 0) >= count, provider
    skipped = sum(pi_counts[p] for p in data["skipped"])
    assert sum(ours.values()) + skipped >= sum(pi_counts.values())
    assert len(set(ours) | set(data["skipped"])) >= len(pi_counts)
    assert data["skipped"] == [] and sum(ours.values()) >= sum(pi_counts.values())  # Copilot and Codex too


def test_generated_models_of_a_hand_written_provider_speak_like_its_group_of_that_api() -> None:
    copilot = {m.id: m for m in builtin_models() if m.provider == "github-copilot"}
    generated_claude, written_claude = copilot["claude-opus-4.6"], copilot["claude-sonnet-4.5"]
    assert generated_claude.api == written_claude.api == "anthropic-messages"
    assert generated_claude.compat.get("bearerAuth") is True  # Copilot's Claude takes a bearer token
    assert generated_claude.headers == written_claude.headers
    assert (
        copilot["gpt-5.4"].api == "openai-responses" and copilot["gpt-5.4"].headers == written_claude.headers
    )


def test_hand_written_rows_win_over_generated_ones() -> None:
    for rows in PROVIDERS:
        for written in rows.models():
            assert find_model(written.provider, written.id) == written
    # A generated model of a hand-written provider goes where that provider's rows go.
    mistral = [m for m in builtin_models() if m.provider == "mistral"]
    assert len(mistral) > len(next(p for p in PROVIDERS if p.provider == "mistral").rows)
    assert {m.base_url for m in mistral} == {"https://api.mistral.ai/v1"}


def test_every_provider_names_how_it_is_authenticated() -> None:
    for provider in {m.provider for m in builtin_models()}:
        assert provider in API_KEY_ENV or provider in _OWN_CREDENTIALS, provider
    assert API_KEY_ENV["google"] == "GEMINI_API_KEY" and API_KEY_ENV["anthropic"] == "ANTHROPIC_API_KEY"
    assert API_KEY_ENV["moonshotai"] == "MOONSHOT_API_KEY"


def test_every_openai_compatible_host_has_a_compat_record() -> None:
    hosts = {(m.provider, m.base_url) for m in builtin_models() if m.api == "openai-completions"}
    assert len({provider for provider, _ in hosts}) >= 10
    for provider, base_url in hosts:
        assert host_record(base_url, provider) is not None, (provider, base_url)
    assert host_record("https://example.com/v1", "someone") is None


def test_models_of_apis_tau_does_not_speak_yet_say_so_in_one_line() -> None:
    unspoken = [m for m in builtin_models() if m.api not in MODULES]
    assert {m.api for m in unspoken} <= set(PLANNED)
    for m in unspoken:
        message = unsupported_api(m.provider, m.id, m.api)
        assert message is not None and "\n" not in message and m.api in message
    assert unsupported_api("openai", "gpt-5", "openai-responses") is None
    assert "unknown API" in (unsupported_api("x", "y", "smoke-signals") or "")


def test_lookup_by_provider_and_id() -> None:
    sonnet = find_model("anthropic", "claude-sonnet-4-5")
    assert sonnet is not None and sonnet.reasoning and sonnet.supports_images
    assert (sonnet.cost.input, sonnet.cost.output) == (3.0, 15.0)
    nova = find_model("amazon-bedrock", "amazon.nova-pro-v1:0")
    assert nova is not None and nova.api == "bedrock-converse-stream" and nova.cost.cache_read > 0
    assert find_model("anthropic", "gpt-5") is None
    assert builtin_models() is not builtin_models()  # callers may mutate their copy


def test_generated_models_carry_their_own_api_compat_and_headers() -> None:
    by_key = {(m.provider, m.id): m for m in builtin_models()}
    gateway = {m.api for (provider, _), m in by_key.items() if provider == "cloudflare-ai-gateway"}
    assert gateway >= {"anthropic-messages", "openai-completions"}
    zai = [m for (provider, _), m in by_key.items() if provider == "zai"]
    assert zai and all(m.compat.get("thinkingFormat") == "zai" for m in zai)
    kimi = [m for (provider, _), m in by_key.items() if provider == "kimi-coding"]
    assert kimi and all(m.headers.get("User-Agent") for m in kimi)


def test_the_generated_file_is_read_only_when_models_are_asked_for() -> None:
    probe = (
        "import sys\n"
        "import tau_ai.catalog as c\n"
        "print('BEFORE', 'tau_ai.catalog.generated' in sys.modules)\n"
        "c.find_model('openai', 'gpt-5')\n"
        "print('AFTER', 'tau_ai.catalog.generated' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["BEFORE", "False", "AFTER", "True"], out.stderr

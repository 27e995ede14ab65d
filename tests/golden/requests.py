"""The fixed contexts every API's request goldens are built from.

Each API gets the same five situations (plain text, system prompt, tool call + results,
thinking replay, images), with assistant messages made by that API's own test model so that
signatures replay, plus one made by another model so that handoff rules show. A few extra
cases pin model- and host-specific behaviour (adaptive thinking, Gemini 3, compat hosts).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tau_agent.content import ImageContent, TextContent, ThinkingContent, ToolCall
from tau_agent.messages import AssistantMessage, LlmMessage, ToolResultMessage, UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_agent.tools import ToolSpec
from tau_ai.apis import wire_api
from tau_ai.model import Model
from tau_ai.wire_api import HttpRequestSpec

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
SYSTEM = "You are Tau, a coding agent. Be brief."
READ = ToolSpec(
    "read",
    "Read a file.",
    {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
)
KEY = "test-key"

MODELS = {
    "openai-completions": Model(
        "o4-mini",
        "openai-completions",
        "openai",
        "https://api.openai.com/v1",
        reasoning=True,
        input=("text", "image"),
        max_tokens=100_000,
    ),
    "openai-responses": Model(
        "gpt-5",
        "openai-responses",
        "openai",
        "https://api.openai.com/v1",
        reasoning=True,
        input=("text", "image"),
        max_tokens=128_000,
    ),
    "openai-codex-responses": Model(
        "gpt-5.1-codex-max",
        "openai-codex-responses",
        "openai-codex",
        "https://chatgpt.com/backend-api",
        reasoning=True,
        input=("text", "image"),
        max_tokens=128_000,
    ),
    "azure-openai-responses": Model(
        "gpt-5",
        "azure-openai-responses",
        "azure-openai-responses",
        "https://res.openai.azure.com",
        reasoning=True,
        input=("text", "image"),
        max_tokens=128_000,
        compat={"azureDeployment": "gpt5-prod"},
    ),
    "anthropic-messages": Model(
        "claude-sonnet-4-5",
        "anthropic-messages",
        "anthropic",
        "https://api.anthropic.com",
        reasoning=True,
        input=("text", "image"),
        max_tokens=64_000,
    ),
    "google-generative-ai": Model(
        "gemini-2.5-flash",
        "google-generative-ai",
        "google",
        "https://generativelanguage.googleapis.com/v1beta",
        reasoning=True,
        input=("text", "image"),
        max_tokens=65_536,
    ),
    "google-gemini-cli": Model(
        "gemini-2.5-pro",
        "google-gemini-cli",
        "google-gemini-cli",
        "https://cloudcode-pa.googleapis.com",
        reasoning=True,
        input=("text", "image"),
        max_tokens=65_536,
    ),
    "google-vertex": Model(
        "gemini-2.5-flash",
        "google-vertex",
        "google-vertex",
        "https://{location}-aiplatform.googleapis.com",
        reasoning=True,
        input=("text", "image"),
        max_tokens=65_536,
        compat={"vertexProject": "my-project", "vertexLocation": "us-central1"},
    ),
    "anthropic-vertex": Model(
        "claude-sonnet-4-5@20250929",
        "anthropic-vertex",
        "google-vertex-anthropic",
        "https://{location}-aiplatform.googleapis.com",
        reasoning=True,
        input=("text", "image"),
        max_tokens=64_000,
        compat={"vertexProject": "my-project", "vertexLocation": "global"},
    ),
    "bedrock-converse-stream": Model(
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "bedrock-converse-stream",
        "amazon-bedrock",
        "https://bedrock-runtime.us-east-1.amazonaws.com",
        name="Claude Sonnet 4.5 (US)",
        reasoning=True,
        input=("text", "image"),
        max_tokens=64_000,
    ),
    "mistral-conversations": Model(
        "magistral-medium-latest",
        "mistral-conversations",
        "mistral",
        "https://api.mistral.ai",
        reasoning=True,
        input=("text", "image"),
        max_tokens=40_000,
    ),
}

# How each API signs what it produced: (thinking signature, text signature, call id, call signature).
SIGNATURES: dict[str, tuple[str | None, str | None, str, str | None]] = {
    "openai-completions": ("reasoning_content", None, "call_abc123", None),
    "openai-responses": (
        '{"id":"rs_1","type":"reasoning","encrypted_content":"gAAAA-opaque","summary":[]}',
        '{"id":"msg_1","phase":"final_answer"}',
        "call_abc123|fc_1",
        None,
    ),
    "openai-codex-responses": (
        '{"id":"rs_1","type":"reasoning","encrypted_content":"gAAAA-opaque","summary":[]}',
        '{"id":"msg_1","phase":"final_answer"}',
        "call_abc123|fc_1",
        None,
    ),
    "azure-openai-responses": (
        '{"id":"rs_1","type":"reasoning","encrypted_content":"gAAAA-opaque","summary":[]}',
        '{"id":"msg_1","phase":"final_answer"}',
        "call_abc123|fc_1",
        None,
    ),
    "anthropic-messages": ("EqQBCkYIBRgCsig", None, "toolu_01A", None),
    "google-generative-ai": ("CiQBthoughtsig", "CiQBtextsig", "call_resp_1", "CiQBcallsig"),
    "google-gemini-cli": ("CiQBthoughtsig", "CiQBtextsig", "call_resp_1", "CiQBcallsig"),
    "mistral-conversations": (None, None, "aB3dE5gH7", None),
    "bedrock-converse-stream": ("EqQBCkYIBRgCsig", None, "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", None),
    "google-vertex": ("CiQBthoughtsig", "CiQBtextsig", "call_resp_1", "CiQBcallsig"),
    "anthropic-vertex": ("EqQBCkYIBRgCsig", None, "toolu_01A", None),
}


def own_reply(api: str, model: Model) -> AssistantMessage:
    thinking_sig, text_sig, call_id, call_sig = SIGNATURES[api]
    return AssistantMessage(
        content=[
            ThinkingContent("The user wants the file read.", thinking_sig),
            TextContent("Reading it.", text_sig),
            ToolCall(call_id, "read", {"path": "a.txt"}, call_sig),
        ],
        api=api,
        provider=model.provider,
        model=model.id,
        stop_reason="toolUse",
        timestamp=0,
    )


def foreign_reply() -> AssistantMessage:
    return AssistantMessage(
        content=[
            ThinkingContent("Earlier reasoning by another model.", "sig-from-elsewhere"),
            ThinkingContent("", "opaque", redacted=True),
            TextContent("Done before.", "text-sig-elsewhere"),
        ],
        api="other-api",
        provider="other",
        model="other-model",
        timestamp=0,
    )


def tool_results(call_id: str) -> list[LlmMessage]:
    return [
        ToolResultMessage(call_id, "read", [TextContent("hello from a.txt")], timestamp=0),
        ToolResultMessage(
            "call_missing|fc_9", "read", [TextContent("ENOENT: no such file")], is_error=True, timestamp=0
        ),
    ]


def contexts(api: str, model: Model) -> dict[str, tuple[Context, StreamOptions]]:
    call_id = SIGNATURES[api][2]
    user = UserMessage("Read a.txt", timestamp=0)
    plain = StreamOptions()
    thinking = StreamOptions(thinking_level="high", session_id="session-1")
    image_user = UserMessage(
        [TextContent("What is in this picture?"), ImageContent(PNG, "image/png")], timestamp=0
    )
    image_result = ToolResultMessage(
        call_id, "read", [TextContent("a.png"), ImageContent(PNG, "image/png")], timestamp=0
    )
    return {
        "text": (Context("", [UserMessage("Hello", timestamp=0)]), plain),
        "system_prompt": (
            Context(SYSTEM, [UserMessage("Hello", timestamp=0)]),
            replace(plain, temperature=0.2),
        ),
        "tool_call_result": (
            Context(
                SYSTEM,
                [user, own_reply(api, model), *tool_results(call_id), UserMessage("Thanks", timestamp=0)],
                [READ],
            ),
            plain,
        ),
        "thinking_replay": (
            Context(
                SYSTEM,
                [
                    UserMessage("Hi", timestamp=0),
                    foreign_reply(),
                    user,
                    own_reply(api, model),
                    *tool_results(call_id),
                ],
                [READ],
            ),
            thinking,
        ),
        "image": (
            Context("", [image_user, own_reply(api, model), image_result], [READ]),
            plain,
        ),
    }


def extra_cases() -> dict[str, tuple[str, Model, Context, StreamOptions]]:
    """name -> (api, model, context, options) for behaviour tied to one model or host."""
    out: dict[str, tuple[str, Model, Context, StreamOptions]] = {}
    high = StreamOptions(thinking_level="xhigh")
    anthropic = MODELS["anthropic-messages"]
    opus = replace(anthropic, id="claude-opus-4-6", max_tokens=128_000)
    opus_context, _ = contexts("anthropic-messages", opus)["thinking_replay"]
    out["thinking_adaptive_opus_4_6"] = ("anthropic-messages", opus, opus_context, high)
    opus_4_7 = replace(opus, id="claude-opus-4-7")
    out["thinking_adaptive_opus_4_7"] = (
        "anthropic-messages",
        opus_4_7,
        contexts("anthropic-messages", opus_4_7)["text"][0],
        high,
    )
    gemini3 = replace(MODELS["google-generative-ai"], id="gemini-3-pro-preview")
    ctx = Context(
        SYSTEM, [UserMessage("Read a.txt", timestamp=0), _foreign_call(), *tool_results("call_x")], [READ]
    )
    out["gemini_3_foreign_call"] = ("google-generative-ai", gemini3, ctx, StreamOptions(thinking_level="low"))
    hosts = {
        "openrouter": "https://openrouter.ai/api/v1",
        "groq": "https://api.groq.com/openai/v1",
        "deepseek": "https://api.deepseek.com",
        "xai": "https://api.x.ai/v1",
        "zai": "https://api.z.ai/api/paas/v4",
        "ollama": "http://localhost:11434/v1",
        "azure": "https://example.openai.azure.com/openai/v1",
        "mistral": "https://api.mistral.ai/v1",
    }
    for host, url in hosts.items():
        model = replace(MODELS["openai-completions"], provider=host, base_url=url, id=f"{host}-model")
        context, _ = contexts("openai-completions", model)["tool_call_result"]
        out[f"host_{host}"] = ("openai-completions", model, context, StreamOptions(thinking_level="medium"))
    bedrock = MODELS["bedrock-converse-stream"]
    opus = replace(
        bedrock, id="global.anthropic.claude-opus-4-6-v1", name="Claude Opus 4.6", max_tokens=128_000
    )
    context, _ = contexts("bedrock-converse-stream", opus)["thinking_replay"]
    out["adaptive_opus_4_6"] = ("bedrock-converse-stream", opus, context, high)
    opus_4_7 = replace(opus, id="us.anthropic.claude-opus-4-7", name="Claude Opus 4.7")
    context, _ = contexts("bedrock-converse-stream", opus_4_7)["text"]
    out["adaptive_opus_4_7"] = ("bedrock-converse-stream", opus_4_7, context, high)
    deepseek = replace(bedrock, id="deepseek.r1-v1:0", name="DeepSeek-R1", input=("text",), max_tokens=32_768)
    context, _ = contexts("bedrock-converse-stream", deepseek)["thinking_replay"]
    out["non_claude_reasoning"] = (
        "bedrock-converse-stream",
        deepseek,
        context,
        StreamOptions(thinking_level="high"),
    )
    custom = replace(
        MODELS["openai-completions"],
        base_url="http://127.0.0.1:9999/v1",
        provider="custom",
        compat={
            "supportsStore": False,
            "maxTokensField": "max_tokens",
            "thinkingFormat": "qwen",
            "requiresToolResultName": True,
        },
    )
    context, _ = contexts("openai-completions", custom)["tool_call_result"]
    out["compat_override"] = ("openai-completions", custom, context, StreamOptions(thinking_level="low"))
    return out


def _foreign_call() -> AssistantMessage:
    return AssistantMessage(
        content=[ToolCall("call_x", "read", {"path": "a.txt"})],
        api="openai-completions",
        provider="openai",
        model="gpt-4o",
        stop_reason="toolUse",
        timestamp=0,
    )


Builder = Callable[[], HttpRequestSpec]


def request_cases() -> dict[str, dict[str, Builder]]:
    """api -> case -> a function building the request."""
    out: dict[str, dict[str, Builder]] = {}
    for api, model in MODELS.items():
        build = wire_api(api).build_request
        for case, (context, options) in contexts(api, model).items():
            out.setdefault(api, {})[case] = lambda b=build, m=model, c=context, o=options: b(m, c, o, KEY)
    for case, (api, model, context, options) in extra_cases().items():
        build = wire_api(api).build_request
        out[api][case] = lambda b=build, m=model, c=context, o=options: b(m, c, o, KEY)
    for case, (api, model, context, options, key) in login_cases().items():
        build = wire_api(api).build_request
        out[api][case] = lambda b=build, m=model, c=context, o=options, k=key: b(m, c, o, k)
    return out


# An unsigned JWT whose claims name ChatGPT account "acct-golden", as a ChatGPT login's token does.
CODEX_TOKEN = "eyJhbGciOiJub25lIn0.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnsiY2hhdGdwdF9hY2NvdW50X2lkIjoiYWNjdC1nb2xkZW4ifX0.sig"


def login_cases() -> dict[str, tuple[str, Model, Context, StreamOptions, str]]:
    """Requests made with a subscription login's token rather than an API key."""
    claude = MODELS["anthropic-messages"]
    codex = MODELS["openai-codex-responses"]
    copilot = replace(claude, provider="github-copilot", id="claude-sonnet-4.5", compat={"bearerAuth": True})
    return {
        "claude_login": (
            "anthropic-messages",
            claude,
            *contexts("anthropic-messages", claude)["tool_call_result"],
            "sk-ant-oat01-golden",
        ),
        "copilot_bearer": (
            "anthropic-messages",
            copilot,
            *contexts("anthropic-messages", copilot)["text"],
            "tid=1;proxy-ep=proxy.x",
        ),
        "gemini_cli_login": (
            "google-gemini-cli",
            MODELS["google-gemini-cli"],
            *contexts("google-gemini-cli", MODELS["google-gemini-cli"])["tool_call_result"],
            '{"token": "ya29.golden", "projectId": "proj-golden"}',
        ),
        "chatgpt_login": (
            "openai-codex-responses",
            codex,
            *contexts("openai-codex-responses", codex)["tool_call_result"],
            CODEX_TOKEN,
        ),
    }

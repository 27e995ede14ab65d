"""Azure OpenAI Responses requests: OpenAI's body, Azure's URL, deployment and auth header."""

from __future__ import annotations

from tau_agent.messages import UserMessage
from tau_agent.provider import Context, StreamOptions
from tau_ai.apis import wire_api
from tau_ai.apis.azure_openai import azure_base
from tau_ai.catalog import find_model
from tau_ai.model import Model


def _model(**compat: str) -> Model:
    return Model(
        id="gpt-5.4",
        api="azure-openai-responses",
        provider="azure-openai-responses",
        base_url="https://res.openai.azure.com",
        reasoning=True,
        compat=compat,
    )


def _context() -> Context:
    return Context(system_prompt="be brief", messages=[UserMessage("hi", timestamp=0)])


def test_a_bare_azure_host_gets_azures_v1_path_and_other_bases_stay() -> None:
    assert azure_base("https://res.openai.azure.com") == "https://res.openai.azure.com/openai/v1"
    assert azure_base("https://res.openai.azure.com/openai/") == "https://res.openai.azure.com/openai/v1"
    assert (
        azure_base("https://r.cognitiveservices.azure.com")
        == "https://r.cognitiveservices.azure.com/openai/v1"
    )
    assert azure_base("https://proxy.example/azure/v1/") == "https://proxy.example/azure/v1"


def test_the_request_names_the_deployment_version_and_api_key() -> None:
    spec = wire_api("azure-openai-responses").build_request(
        _model(azureDeployment="prod", azureApiVersion="2025-04-01-preview"), _context(), StreamOptions(), "k"
    )
    assert spec.url == "https://res.openai.azure.com/openai/v1/responses?api-version=2025-04-01-preview"
    assert spec.headers["api-key"] == "k" and "authorization" not in spec.headers
    assert spec.body["model"] == "prod" and spec.body["stream"] is True and spec.body["store"] is False


def test_an_entra_token_is_sent_as_authorization_and_the_default_version_is_v1() -> None:
    spec = wire_api("azure-openai-responses").build_request(
        _model(), _context(), StreamOptions(), "Bearer tok"
    )
    assert spec.url.endswith("/openai/v1/responses?api-version=v1")
    assert spec.headers["authorization"] == "Bearer tok" and "api-key" not in spec.headers
    assert spec.body["model"] == "gpt-5.4"


def test_the_catalogues_azure_models_are_spoken_now() -> None:
    model = find_model("azure-openai-responses", "gpt-5.4")
    assert model is not None and model.api == "azure-openai-responses" and model.cost.input > 0
    assert wire_api(model.api).name == "azure-openai-responses"

"""Azure settings from the environment, and Entra ID tokens through a seam (no azure-identity needed)."""

from __future__ import annotations

import pytest

from tau_ai.model import Model
from tau_coding.config.azure import AzureConfigError, azure_model, deployment_map, entra_bearer

_AZURE = Model(id="gpt-5.4", api="azure-openai-responses", provider="azure-openai-responses", base_url="")


def test_the_deployment_map_reads_pis_format_and_refuses_a_malformed_entry() -> None:
    assert deployment_map(" gpt-5.4 = prod , o3=east,, ") == {"gpt-5.4": "prod", "o3": "east"}
    with pytest.raises(AzureConfigError, match="'o3' is not model=deployment"):
        deployment_map("gpt-5.4=prod,o3")


def test_the_endpoint_comes_from_the_base_url_else_the_resource_name() -> None:
    env = {"AZURE_OPENAI_RESOURCE_NAME": "res", "AZURE_OPENAI_API_VERSION": "2025-04-01-preview"}
    model = azure_model(_AZURE, env)
    assert model.base_url == "https://res.openai.azure.com/openai/v1"
    assert model.compat == {"azureApiVersion": "2025-04-01-preview"}
    env["AZURE_OPENAI_BASE_URL"] = "https://proxy.example/v1"
    env["AZURE_OPENAI_DEPLOYMENT_NAME_MAP"] = "gpt-5.4=prod"
    assert azure_model(_AZURE, env).base_url == "https://proxy.example/v1"
    assert azure_model(_AZURE, env).compat["azureDeployment"] == "prod"
    with pytest.raises(AzureConfigError, match="AZURE_OPENAI_BASE_URL"):
        azure_model(_AZURE, {})


def test_other_apis_models_are_left_alone() -> None:
    other = Model(id="gpt-5", api="openai-responses", provider="openai", base_url="https://api.openai.com/v1")
    assert azure_model(other, {"AZURE_OPENAI_BASE_URL": "https://x"}) is other


def test_an_entra_token_comes_from_the_environment_else_the_credential_chain() -> None:
    def fetch() -> str:
        calls.append(1)
        return "chain-token"

    calls: list[int] = []
    assert entra_bearer({"AZURE_OPENAI_AD_TOKEN": "t"}, fetch) == "Bearer t"
    assert entra_bearer({}, fetch) is None  # Azure not set up: not even asked
    assert calls == []
    assert entra_bearer({"AZURE_OPENAI_RESOURCE_NAME": "res"}, fetch) == "Bearer chain-token"
    assert calls == [1]


def test_a_failed_sign_in_is_one_line() -> None:
    def fetch() -> str:
        raise AzureConfigError("Entra ID sign-in failed: no credential")

    with pytest.raises(AzureConfigError, match="sign-in failed"):
        entra_bearer({"AZURE_OPENAI_BASE_URL": "https://x"}, fetch)

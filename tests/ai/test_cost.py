"""Cost per reply: tokens times per-million prices, idempotent."""

from __future__ import annotations

import pytest

from tau_agent.messages import Usage
from tau_ai.cost import apply_cost
from tau_ai.model import Model, ModelCost


def test_each_kind_of_token_has_its_own_price() -> None:
    model = Model(id="m", api="a", provider="p", base_url="", cost=ModelCost(3.0, 15.0, 0.3, 3.75))
    usage = Usage(input=2_000, output=1_000, cache_read=10_000, cache_write=4_000, reasoning=500)
    cost = apply_cost(usage, model)
    assert cost.input == pytest.approx(0.006)
    assert cost.output == pytest.approx(0.015)
    assert cost.cache_read == pytest.approx(0.003)
    assert cost.cache_write == pytest.approx(0.015)
    assert cost.total == pytest.approx(0.039)
    assert usage.total_tokens == 17_000
    assert apply_cost(usage, model) == cost  # calling twice changes nothing


def test_a_free_model_costs_nothing() -> None:
    usage = Usage(input=5, output=5, total_tokens=10)
    assert apply_cost(usage, Model(id="m", api="a", provider="p", base_url="")).total == 0.0

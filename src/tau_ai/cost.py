"""What a reply cost: tokens times the model's per-million prices (pure).

``apply_cost`` fills ``usage.cost`` from its token counts and returns it; calling it again
gives the same numbers, so an adapter and the HTTP layer may both call it. ``input`` tokens
exclude cache reads and writes (each has its own price), as every Usage in Tau does.
Reasoning tokens are already part of ``output`` and are not charged twice.
"""

from __future__ import annotations

from tau_agent.messages import Cost, Usage
from tau_ai.model import Model, ModelCost

_PER_MILLION = 1_000_000.0


def cost_of(usage: Usage, prices: ModelCost) -> Cost:
    """The Cost of ``usage`` at ``prices`` (US dollars per million tokens)."""
    cost = Cost(
        input=usage.input * prices.input / _PER_MILLION,
        output=usage.output * prices.output / _PER_MILLION,
        cache_read=usage.cache_read * prices.cache_read / _PER_MILLION,
        cache_write=usage.cache_write * prices.cache_write / _PER_MILLION,
    )
    cost.total = cost.input + cost.output + cost.cache_read + cost.cache_write
    return cost


def apply_cost(usage: Usage, model: Model) -> Cost:
    """Set ``usage.cost`` from ``model.cost`` (and ``total_tokens`` if unset); returns the cost."""
    usage.cost = cost_of(usage, model.cost)
    if not usage.total_tokens:
        usage.total_tokens = usage.input + usage.output + usage.cache_read + usage.cache_write
    return usage.cost

"""Subagents: the ``task`` tool, agent definitions and the child runs behind them (docs/subagents.md)."""

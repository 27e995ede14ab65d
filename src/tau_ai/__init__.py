"""tau_ai: provider adapters for the model APIs (implements tau_agent.provider.ModelProvider)."""

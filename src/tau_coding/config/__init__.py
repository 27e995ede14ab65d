"""Where Tau keeps its files, and what the user configured: settings, credentials, models."""

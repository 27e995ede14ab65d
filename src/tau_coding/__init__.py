"""tau_coding: the Tau coding agent application (CLI, modes, tools, sessions)."""

__version__ = "0.1.0"

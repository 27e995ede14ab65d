"""Test helpers that ship with tau_ai: a local replay server and a toy wire API."""

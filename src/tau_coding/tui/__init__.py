"""The interactive terminal UI (Textual). Only ``tau_coding.modes`` imports it.

It talks to a session through ``port.SessionPort`` and never to configuration, credentials or
storage directly. ``state`` and the other pure modules import no Textual.
"""

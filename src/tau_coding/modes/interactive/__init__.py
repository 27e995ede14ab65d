"""The interactive mode: ``run`` starts the TUI on a session through ``session_port`` (the
adapter from a CodingSession to the TUI's SessionPort), ``tree_rows`` and ``tui_ui``."""

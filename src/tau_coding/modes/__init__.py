"""Ways to run Tau on a session: ``print_mode`` (text and json), ``rpc/``, ``interactive/`` (the
TUI) and ``list_models``. Modes are handed a built session; they never build one themselves."""

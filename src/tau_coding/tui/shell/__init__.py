"""The top of the TUI: the Textual app and its slash commands, above widgets and screens."""

"""Checkpoints: snapshots of the project's files, kept outside the user's repository, so a
rewind can undo what the agent did to the code (docs/checkpoints.md)."""

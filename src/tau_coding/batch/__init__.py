"""``tau batch``: run many tasks, each in its own working copy, session and ``tau`` process.

Tasks come from a JSONL file (``tasks``), results go to a JSONL file one atomic line at a time
(``results``); ``runner`` joins them with a backend: the local process pool (``pool``) or Ray
(``ray_backend``, imported only when asked for). docs/batch.md describes the formats.
"""

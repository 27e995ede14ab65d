"""The OS sandbox for commands the model runs (docs/sandbox.md).

``policy`` says what a confined command may touch, ``bwrap`` and ``seatbelt`` turn a policy
into the argv of bubblewrap (Linux) or ``sandbox-exec`` (macOS), ``probe`` finds out once per
process whether the sandbox can start, ``launch`` combines them into what to execute, and
``hint`` recognises a failure the sandbox probably caused. Only the standard library is used;
``tools`` imports this package, never the other way round.
"""

"""Who decides whether a tool call runs: permission modes, rules, and the approval seam.

``engine.decide`` is pure: a tool call, the rules and the mode in, a ``Decision`` out.
``gate.PermissionGate`` holds one session's mode and remembered answers and asks an
``Approver`` when the decision is "ask" (docs/permissions.md).
"""

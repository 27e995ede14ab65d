"""Shell hooks in Claude Code's format: ``hooks`` in settings.json run commands at fixed points.

``config`` reads the settings, ``tool_names`` maps Tau's tools to the names and inputs hook
scripts expect, ``payload`` builds what a hook reads on stdin, ``runner`` runs one command,
``outcome`` reads what it answered, and ``extension`` plugs all of it into the session
through the same ExtensionAPI that Python extensions use.
"""

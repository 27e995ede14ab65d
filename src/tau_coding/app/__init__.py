"""The ``tau`` program: ``cli`` (entry point), ``cli_args``, ``cli_dispatch`` (picks a mode),
``wiring`` (the composition root: settings, models, credentials, tools, resources, extensions
into a CodingSession), ``session_setup``, the extension host's assembly (``extension_presence``,
``extension_setup``), ``prompt_input`` and ``extension_help``. Nothing below imports it.
"""

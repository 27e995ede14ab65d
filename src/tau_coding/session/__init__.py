"""A coding session: ``coding_session`` (CodingSession), its ``events``, ``control`` (new, switch,
fork, navigate, export), the ``hooks`` Protocol extensions implement, ``compactor`` with the
pure planners in ``compaction/``, and ``store/`` (session files on disk: paths, listing, manager,
exports). Imports config, resources and tools; never extensions, modes, the TUI or the app.
"""

"""Session primitives: entries, their JSON codec, the tree, replay, and storages.

Generic: nothing here picks a file location or reads the environment; the app
(``tau_coding.session.store``) decides where files live. Import from the modules: ``entries``
(the dataclasses), ``codec`` and ``migrate`` (JSON, Pi v1-v3), ``tree``, ``state``
(``SessionState.from_entries``), ``storage`` (the ``SessionStorage`` protocol, in memory),
``jsonl`` (``JsonlSessionStorage``), ``reader`` (parsing a file: ``fast_decode`` for the
lines msgspec reads straight into Tau's types, the careful ``codec`` for the rest), ``log``
(``SessionLog``: appending and navigating), ``stats``.
"""

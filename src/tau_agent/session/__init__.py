"""Session primitives: entries, their JSON codec, the tree, replay, and storages.

Generic: nothing here picks a file location or reads the environment; the app
(``tau_coding.sessions``) decides where files live. Import from the modules:
``entries``, ``codec``, ``tree``, ``state``, ``storage``, ``jsonl``, ``reader``, ``log``.
"""

"""Packages: other people's extensions, skills, prompts and themes, installed with one command.

``tau install|remove|update|list`` (``cli.py``) edit the ``packages`` setting and fetch what a
source needs (``store.py``); a package's directory says what it offers (``manifest.py``); the
session finds the active packages' extensions through ``active.py``.
"""

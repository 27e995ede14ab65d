"""Servers that fail, for Tau's tests: ``mute`` reads requests and never answers (hangs in
``initialize``); ``crash`` writes a line to stderr and exits at once."""

import sys

if sys.argv[1:] == ["crash"]:
    sys.stderr.write("fixture: cannot open the database\n")
    sys.exit(1)
for _line in sys.stdin:
    pass

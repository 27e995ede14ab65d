"""The ground floor: diagnostics, exit codes, the dataclass and regex code table, the garbage collector's settings (collector).
Imports nothing else of Tau."""

"""The ground floor: diagnostics, exit codes, the dataclass and regex code table, the start-up collector.
Imports nothing else of Tau."""

"""The ground floor: diagnostics, exit codes, the dataclass code table. Imports nothing else of Tau."""

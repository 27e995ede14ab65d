"""The ground floor: diagnostics, atomic file writes and exit codes. Imports nothing else of Tau."""

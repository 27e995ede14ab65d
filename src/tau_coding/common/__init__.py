"""The ground floor: diagnostics and exit codes. Imports nothing else of Tau."""

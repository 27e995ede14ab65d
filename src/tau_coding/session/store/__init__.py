"""Sessions on disk for the app: where they live (paths), how they are listed (listing), and
the SessionManager that creates, opens, continues, forks and deletes them (manager)."""

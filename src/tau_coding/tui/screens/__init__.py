"""Modal screens: pickers and information panels."""

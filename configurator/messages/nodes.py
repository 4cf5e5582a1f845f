"""Messages of the node rules engine's findings (codes in configurator.rules.catalogue)."""

"""Start-up and wiring: the command line's games, demos and resolver, with their I/O."""

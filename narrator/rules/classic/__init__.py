"""The multi-night engine of classic Thiercelieux (rulebooks 002 and 003): pure, no I/O."""

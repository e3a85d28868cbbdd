"""Classic Thiercelieux's script: the rules, the night's calls and the day's words."""

"""The session loop: the only place that knows about time and both voice ports."""

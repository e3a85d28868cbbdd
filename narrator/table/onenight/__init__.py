"""A one-night table: the night read aloud, then the day's debate, vote and reveal."""

"""The pure rules engines, one folder per game family; what both share sits here."""

"""The one-night games' scripts: the rules, the night's announcements, the reasons in French."""

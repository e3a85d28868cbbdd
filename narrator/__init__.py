"""narrator: an offline, voice-driven game master for Loups-Garous tables."""

__version__ = "0.1.0"

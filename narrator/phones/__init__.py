"""Each player's phone: the seats' screens (hub.py), what they show (screens.py), the web server."""

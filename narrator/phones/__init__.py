"""Each player's phone: the seats' screens (hub.py), what they show (screens.py), the web server."""


class PhoneError(Exception):
    """The phones cannot be served (a port taken, an address not on this machine): French, for the table."""

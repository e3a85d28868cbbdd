"""The table's address on its network: the machine's LAN IPv4 address, the URL the phones open, its QR
code for the terminal, and `narrateur.local` advertised by mDNS where the network lets it through.

The addresses come from the interfaces as the system lists them (ifaddr): nothing is sent to find
them. The advertisement (zeroconf) is bound to the addresses given, and to no other interface.
"""

from __future__ import annotations

import io
import ipaddress
import socket
from collections.abc import Sequence

HOST_NAME = "narrateur"  # the phones may open http://narrateur.local:PORT
SERVICE_TYPE = "_http._tcp.local."
SERVICE_NAME = f"Narrateur.{SERVICE_TYPE}"
LAN = "lan"  # --bind lan: the table's network
# interfaces of containers and virtual machines: an address there is not the table's network
VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "lxc", "cni", "flannel", "tun", "tap", "wg")


class AddressError(Exception):
    """No address to serve the phones on, as asked; the message is one French sentence."""


def lan_addresses() -> list[str]:
    """The machine's IPv4 addresses on a local network, the most likely table's network first: private
    addresses of real interfaces before others; never loopback or link-local."""
    import ifaddr

    found: list[tuple[int, str]] = []
    for adapter in ifaddr.get_adapters():
        virtual = adapter.nice_name.startswith(VIRTUAL)
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):  # an IPv6 address comes as a tuple
                continue
            address = ipaddress.IPv4Address(ip.ip)
            if address.is_loopback or address.is_link_local or address.is_unspecified:
                continue
            found.append((int(virtual) * 2 + int(not address.is_private), ip.ip))
    return list(dict.fromkeys(address for _, address in sorted(found, key=lambda f: f[0])))


def bind_address(bind: str) -> str:
    """The address the server listens on: `lan` is the table's network (its first address); else the
    IPv4 address given (127.0.0.1 for tests and trials). `AddressError` when there is none."""
    if bind == LAN:
        found = lan_addresses()
        if not found:
            raise AddressError(
                "aucune adresse sur un réseau local : connectez cet ordinateur au Wi-Fi de la table"
                " (ou donnez --bind ADRESSE)"
            )
        return found[0]
    try:
        return str(ipaddress.IPv4Address(bind))
    except ValueError:
        raise AddressError(f"--bind : attendu : lan ou une adresse IPv4 comme 192.168.1.20 ; trouvé : {bind}") from None


def url(address: str, port: int) -> str:
    """What a phone opens."""
    return f"http://{address}:{port}"


def spoken_address(address: str, port: int) -> str:
    """The address as the narrator says it: every part of the IP as a number, « point » between them;
    the port digit by digit, as it is typed (« 8 0 8 0 », never « huit mille quatre-vingts »)."""
    parts = " point ".join(address.split("."))
    return f"{parts}, deux-points {' '.join(str(port))}"


def qr_code(text: str) -> str:
    """`text` as a QR code drawn with block characters, two rows a line (for a terminal)."""
    import segno

    out = io.StringIO()
    segno.make(text, error="m", micro=False).terminal(out=out, compact=True)
    return out.getvalue()


class Advert:
    """`narrateur.local` and an `_http._tcp` service named « Narrateur », answered on `addresses` only."""

    def __init__(self, addresses: Sequence[str], port: int) -> None:
        from zeroconf import ServiceInfo, Zeroconf

        self._zeroconf = Zeroconf(interfaces=list(addresses))
        self._info = ServiceInfo(
            SERVICE_TYPE,
            SERVICE_NAME,
            addresses=[socket.inet_aton(a) for a in addresses],
            port=port,
            properties={"path": "/"},
            server=f"{HOST_NAME}.local.",
        )
        try:
            # another table's narrator on the same network: this one takes « Narrateur (2) »
            self._zeroconf.register_service(self._info, allow_name_change=True)
        except BaseException:
            self._zeroconf.close()
            raise

    def close(self) -> None:
        try:
            self._zeroconf.unregister_service(self._info)
        finally:
            self._zeroconf.close()


def advertise(addresses: Sequence[str], port: int) -> Advert | None:
    """The advertisement started, or None where the network does not allow it (no multicast): the
    address and the QR code still work, only the name does not."""
    try:
        return Advert(addresses, port)
    except Exception:  # zeroconf raises many kinds (OSError, its own): the name is a convenience
        return None

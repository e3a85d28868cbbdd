"""The table's address: the LAN address read from the interfaces, the QR code the terminal shows, and
narrateur.local answered by mDNS. Whatever touches a network runs inside a network namespace this test
makes (`unshare --map-root-user --net`: no root needed where user namespaces are allowed), with a veth pair as its LAN: nothing is sent to any other network."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import segno

from narrator.phones.address import AddressError, bind_address, qr_code, spoken_address, url

ROOT = Path(__file__).resolve().parent.parent
# a LAN of its own: veth0 (the narrator's machine, a private address) and its peer; a container's
# bridge beside it, which is not the table's network
NAMESPACE_LAN = """
ip link set lo up
ip link add veth0 type veth peer name veth1
ip addr add 192.168.77.5/24 dev veth0
ip link set veth1 up
ip link set veth0 up
ip link add docker0 type veth peer name docker1
ip addr add 172.17.0.1/16 dev docker0
ip link set docker0 up
"""


def in_namespace(setup: str, code: str) -> subprocess.CompletedProcess[str]:
    """`code` run by Python inside a new network namespace prepared by the shell lines `setup`."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.fail("unshare and ip (util-linux, iproute2) are needed to test the network in a namespace")
    script = f"{setup}\nexec {sys.executable} -c '{code}'"
    run = subprocess.run(
        ["unshare", "--map-root-user", "--net", "sh", "-ec", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    return run


def test_the_lan_address_is_the_private_one_of_a_real_interface() -> None:
    code = (
        'from narrator.phones.address import lan_addresses, bind_address; print(lan_addresses(), bind_address("lan"))'
    )
    run = in_namespace(NAMESPACE_LAN, code)
    assert run.stdout.split() == ["['192.168.77.5',", "'172.17.0.1']", "192.168.77.5"]


def test_no_lan_address_is_one_french_sentence() -> None:
    code = (
        "from narrator.phones.address import AddressError, bind_address\n"
        'try:\n    bind_address("lan")\nexcept AddressError as exc:\n    print(exc)'
    )
    run = in_namespace("ip link set lo up", code)  # loopback only: no table's network
    assert run.stdout.strip() == (
        "aucune adresse sur un réseau local : connectez cet ordinateur au Wi-Fi de la table (ou donnez --bind ADRESSE)"
    )


def test_an_address_given_is_used_as_given_and_checked() -> None:
    assert bind_address("127.0.0.1") == "127.0.0.1"
    with pytest.raises(AddressError, match="--bind : attendu : lan ou une adresse IPv4 .* trouvé : narrateur"):
        bind_address("narrateur")
    with pytest.raises(AddressError):
        bind_address("999.1.1.1")


def test_the_address_as_said_and_as_opened() -> None:
    assert url("192.168.1.20", 8080) == "http://192.168.1.20:8080"
    assert spoken_address("192.168.1.20", 8080) == "192 point 168 point 1 point 20, deux-points 8 0 8 0"


def test_the_qr_code_drawn_in_the_terminal_holds_the_url() -> None:
    """Two rows of modules a line, light drawn and dark left blank; rebuilt module by module it is the
    URL's own QR code (segno encodes it; what is checked here is that the drawing loses nothing)."""
    text = "http://192.168.1.20:8080"
    drawn = qr_code(text).splitlines()
    expected = segno.make(text, error="m", micro=False)
    border = 4
    width = expected.symbol_size(border=border)[0]
    assert all(len(line) == width for line in drawn) and len(drawn) == (width + 1) // 2
    rows: list[list[bool]] = []  # True: a dark module
    for line in drawn:
        top = [c in " ▄" for c in line]
        bottom = [c in " ▀" for c in line]
        rows += [top, bottom]
    matrix = [[bool(m) for m in row] for row in expected.matrix]
    assert [row[border:-border] for row in rows[border : border + len(matrix)]] == matrix


def test_narrateur_local_and_its_service_are_answered_on_the_lan_only() -> None:
    """Advertised on the LAN's address; a phone on that LAN (a resolver there) finds the name and the
    service's port. Inside the namespace: the packets never leave it."""
    code = "\n".join(
        [
            "from zeroconf import Zeroconf, AddressResolverIPv4",
            "from narrator.phones.address import advertise, bind_address, SERVICE_TYPE, SERVICE_NAME",
            'lan = bind_address("lan")',
            "advert = advertise([lan], 8123)",
            "assert advert is not None",
            "phone = Zeroconf(interfaces=[lan])",
            'name = AddressResolverIPv4("narrateur.local.")',
            "assert name.request(phone, 5000)",
            "info = phone.get_service_info(SERVICE_TYPE, SERVICE_NAME, 5000)",
            "print(name.parsed_addresses(), info.parsed_addresses(), info.port, info.server)",
            "phone.close()",
            "advert.close()",
        ]
    )
    run = in_namespace(NAMESPACE_LAN, code)
    assert run.stdout.split() == ["['192.168.77.5']", "['192.168.77.5']", "8123", "narrateur.local."]

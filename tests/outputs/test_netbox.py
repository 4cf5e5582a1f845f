"""Issue #34, item 1: ``netbox.zip``, the design as NetBox's bulk import bundle. The zip is read back as NetBox
would import it and checked against NetBox's model rules (unique device names per site regardless of case, no two
devices on one unit of one face, every device within its rack, zero-U PDUs without a position, a feed's available
power the PDU's rating, one primary and one redundant feed per PDU pair), against the devicetype-library's format
(required and known keys, slug rule, NetBox interface types, no empty values) and the library's own checks (a file
named as its model's slug up to case, a power source on every device type, its YAML style), and against the
cabling CSV: every
row is exactly one cable between two ports of listed devices, the customer's network and storage ends included (as
devices of the site in no rack)."""

from __future__ import annotations

import csv
import io
import math
import zipfile
from collections import Counter

import pytest
import yaml

from configurator.services import design_validate
from design.model.site import MAX_DIGITS, MAX_PREFIX
from outputs.netbox_types import slugify
from outputs.services import configuration_export, design_output
from tests.configurator.test_ra_golden import RA_NETWORKS, _superpod
from tests.factories import ConfigurationFactory
from tests.outputs.test_handover import hgx, nvl72
from tests.outputs.test_physical_model import _nvl72

pytestmark = pytest.mark.django_db

ORDER = ["manufacturers.csv", "device-roles.csv", "sites.csv", "racks.csv", "power-panels.csv", "power-feeds.csv",
         "devices.csv", "interfaces.csv", "cables.csv"]  # fmt: skip
# The devicetype-library's device-type keys (schema/devicetype.json) and the ones it requires.
KEYS = {"manufacturer", "model", "slug", "part_number", "u_height", "is_full_depth", "airflow", "weight",
        "weight_unit", "front_image", "rear_image", "subdevice_role", "is_powered", "console-ports",
        "console-server-ports", "power-ports", "power-outlets", "interfaces", "front-ports", "rear-ports",
        "module-bays", "device-bays", "inventory-items", "description", "comments"}  # fmt: skip
REQUIRED = {"manufacturer", "model", "slug", "u_height", "is_full_depth"}
# NetBox's interface type values (dcim/choices.py InterfaceTypeChoices) the bundle may use.
NETBOX_TYPES = {"1000base-t", "10gbase-t", "100gbase-x-qsfp28", "200gbase-x-qsfp56", "400gbase-x-qsfp112",
                "400gbase-x-osfp", "800gbase-x-osfp", "infiniband-hdr", "infiniband-ndr", "infiniband-xdr",
                "other"}  # fmt: skip


class Bundle:
    def __init__(self, body: bytes):
        self.zip = zipfile.ZipFile(io.BytesIO(body))
        self.names = self.zip.namelist()

    def csv(self, name: str) -> list[dict[str, str]]:
        return list(csv.DictReader(io.StringIO(self.zip.read(name).decode())))

    def types(self) -> dict[str, dict]:
        return {n: yaml.safe_load(self.zip.read(n)) for n in self.names if n.startswith("device-types/")}

    def text(self, name: str) -> str:
        return self.zip.read(name).decode()

    @property
    def readme(self) -> str:
        return self.zip.read("README.txt").decode()


def bundle(result) -> Bundle:
    return Bundle(b"".join(design_output(name="netbox.zip", result=result, language="en").body))  # type: ignore[arg-type]


def cabling(result) -> list[str]:
    return "".join(design_output(name="cabling.csv", result=result, language="en").body).splitlines()[1:]  # type: ignore[arg-type]


def _check_files(b: Bundle) -> None:
    assert set(ORDER) | {"README.txt"} <= set(b.names)
    readme = b.readme
    positions = [readme.index(name) for name in ORDER]
    assert positions == sorted(positions), "README gives the import order"
    assert readme.index("device-types/") < readme.index("devices.csv")
    for name in ("sites.csv", "racks.csv", "power-feeds.csv", "devices.csv", "cables.csv"):
        assert {row["status"] for row in b.csv(name)} == {"planned"}, name


def library_slug(model: str) -> str:
    """The devicetype-library's slug of a model (tests/device_types.py), for the characters its models here use."""
    return model.casefold().replace(" ", "-").replace("_", "-").replace("/", "-").removesuffix("-")


def _check_library_rules(path: str, text: str, doc: dict) -> None:
    """The devicetype-library's own checks of a device-type file beyond its schema (tests/device_types.py, its
    yamllint rules): a file named as its model's slug (up to case) or part number; a power source (a power port, or
    ``is_powered: false`` and then no outlets); a document start and lists indented under their keys."""
    stem = path.rsplit("/", 1)[1].removesuffix(".yaml").casefold()
    assert stem in (library_slug(doc["model"]), doc.get("part_number", "").casefold()), path
    if doc.get("is_powered", True):
        assert doc.get("power-ports"), f"{path}: no power source"
    else:
        assert not doc.get("power-ports") and not doc.get("power-outlets"), path
    assert text.startswith("---\n") and text.endswith("\n"), path
    assert not [line for line in text.splitlines() if line.startswith("- ")], f"{path}: a list not indented"


def _check_types(b: Bundle) -> dict[str, dict]:
    by_model = {}
    for path, doc in b.types().items():
        assert REQUIRED <= set(doc) <= KEYS, path
        assert path.startswith(f"device-types/{doc['manufacturer']}/"), path
        _check_library_rules(path, b.text(path), doc)
        assert doc["slug"] == f"{slugify(doc['manufacturer'])}-{slugify(doc['model'])}"
        assert all(c.isascii() and (c.isalnum() and not c.isupper() or c in "-_") for c in doc["slug"]), path

        def empty(value) -> bool:
            if isinstance(value, dict):
                return any(empty(v) for v in value.values())
            if isinstance(value, list):
                return not value or any(empty(v) for v in value)
            return value is None or value == ""

        assert not empty(doc), f"{path}: a null or empty value"
        for iface in doc.get("interfaces", []):
            assert iface["type"] in NETBOX_TYPES, (path, iface)
        names = [i["name"] for i in doc.get("interfaces", [])]
        assert len(names) == len(set(names)), path
        by_model[doc["model"]] = doc
    return by_model


def _check_devices(b: Bundle, types: dict[str, dict]) -> dict[str, dict[str, str]]:
    devices = b.csv("devices.csv")
    folded = Counter(d["name"].casefold() for d in devices)
    assert not [n for n, k in folded.items() if k > 1], "device names unique per site regardless of case"
    rows = b.csv("racks.csv")
    # NetBox refuses a rack with neither a rack type nor a width ("Width must be set if not specifying a rack type");
    # its widths are 10, 19, 21 and 23 inches.
    assert rows and all(r.get("width") in ("10", "19", "21", "23") for r in rows), "every rack has NetBox's width"
    racks = {r["name"]: int(r["u_height"]) for r in rows}
    units: Counter = Counter()
    by_name = {d["name"]: d for d in devices}
    for d in devices:
        height = types[d["device_type"]]["u_height"]
        if not d["rack"]:  # a device of the site in no rack (NetBox allows it): the customer's, no position
            assert not d["position"] and not d["face"], d
            assert d["role"].startswith("customer-") or d["name"].startswith("oob-extra-"), d
        elif height == 0:
            assert not d["position"] and not d["face"], f"{d['name']}: a zero-U device has no position"
        else:
            first = int(d["position"])
            assert d["face"] in ("front", "rear") and first >= 1 and first + height - 1 <= racks[d["rack"]], d
            for u in range(first, first + height):  # full-depth: the unit is taken on both faces
                units[(d["rack"], u)] += 1
    assert not [k for k, n in units.items() if n > 1], "(rack, position, face) unique"
    return by_name


def _check_cables(b: Bundle, types: dict[str, dict], devices: dict[str, dict], rows: list[str]) -> None:
    added = {(i["device"], i["name"]) for i in b.csv("interfaces.csv")}
    assert {i["type"] for i in b.csv("interfaces.csv")} <= NETBOX_TYPES
    cables = b.csv("cables.csv")
    ends: Counter = Counter()
    for c in cables:
        for side in ("side_a", "side_b"):
            device, port = c[f"{side}_device"], c[f"{side}_name"]
            assert c[f"{side}_type"] == "dcim.interface"
            own = {i["name"] for i in types[devices[device]["device_type"]].get("interfaces", [])}
            assert port in own or (device, port) in added, (device, port)
            ends[(device, port)] += 1
    assert not [e for e, n in ends.items() if n > 1], "a port cabled twice"
    # NetBox's lengths: a device's and an interface's name at most 64 characters, a cable's description 200.
    assert max(len(name) for end in ends for name in end) <= 64
    assert max(len(c["description"]) for c in cables) <= 200
    pairs = Counter(frozenset(((c["side_a_device"], c["side_a_name"]), (c["side_b_device"], c["side_b_name"])))
                    for c in cables)  # fmt: skip
    assert "Not in cables.csv" not in b.readme
    assert len(cables) == len(rows)
    for row in rows:
        f = row.split(",")
        key = frozenset((_netbox_end(f[0], f[1], f[2], f[3]), _netbox_end(f[2], f[3], f[0], f[1])))
        assert pairs[key] == 1, row  # every row exactly once


def _netbox_end(name: str, port: str, far: str, far_port: str) -> tuple[str, str]:
    """A cabling-CSV end as the bundle's README says NetBox gets it."""
    if name.startswith("uplink-net-"):  # a network, not a port: one interface per cable
        return "customer-network", f"{name}/{port}" if port else f"{name}/{far}/{far_port}"
    if name.startswith("storage-port-"):
        return "customer-storage", f"{name}/{port}" if port else name
    return name, port


def _check_power(b: Bundle, result) -> None:
    plan = result.rack_plan.plan
    feeds = b.csv("power-feeds.csv")
    pdus = [d for d in b.csv("devices.csv") if d["role"] == "pdu"]
    assert len(feeds) == len(pdus) == sum(p.quantity for p in plan.pdus)
    assert {f["description"].removeprefix("feeds PDU ") for f in feeds} == {d["name"] for d in pdus}
    panels = {p["name"] for p in b.csv("power-panels.csv")}
    kinds: dict[str, Counter] = {}
    for f in feeds:
        assert f["power_panel"] in panels
        rating_w = 22_000  # AP8886: 22.0 kW, 230 V phase voltage, 32 A, three phases (catalog/seed/FACTS.md)
        available = float(f["voltage"]) * float(f["amperage"]) * math.sqrt(3) * float(f["max_utilization"]) / 100
        assert f["phase"] == "three-phase" and abs(available - rating_w) / rating_w < 0.005, f
        kinds.setdefault(f["rack"], Counter())[f["type"]] += 1
    if str(plan.feeds) == "A+B":
        assert panels == {"Panel A", "Panel B"}
        assert all(k["primary"] == k["redundant"] for k in kinds.values()), "one primary, one redundant per pair"


def _check(result) -> Bundle:
    b = bundle(result)
    _check_files(b)
    types = _check_types(b)
    devices = _check_devices(b, types)
    _check_cables(b, types, devices, cabling(result))
    _check_power(b, result)
    # Every added port has its NetBox type: its device type's, its peer's or its catalogued cable's (an NVL72 rack's
    # own management switch lists no ports; its RJ45 patch cords make them 1000base-t), never "other".
    assert not [i for i in b.csv("interfaces.csv") if i["type"] == "other"]
    return b


def test_the_127_node_superpod_with_storage_in_band_and_out_of_band_imports_under_netboxs_rules(seeded_catalog):
    result = design_validate(document=_superpod(127, RA_NETWORKS))
    b = _check(result)
    devices = b.csv("devices.csv")
    roles = Counter(d["role"] for d in devices)
    assert roles["node"] == 127 and roles["control"] == 10 and roles["storage-leaf"] and roles["inband-leaf"]
    added = {(i["device"], i["name"]): i["type"] for i in b.csv("interfaces.csv")}
    # The adapters the design adds: 8 compute NICs, 2 storage and 2 in-band ports per node, typed as their links.
    assert added[("node-0001", "nic1")] == added[("node-0001", "stor2")] == "infiniband-ndr"
    assert added[("node-0001", "mgmt1")] == "100gbase-x-qsfp28" and added[("node-0001", "bmc")] == "1000base-t"
    sn2201 = b.types()["device-types/NVIDIA/SN2201.yaml"]
    assert sum(i["type"] == "1000base-t" for i in sn2201["interfaces"]) == 48  # its 48 RJ45 ports, as catalogued
    # A supply per catalogued PSU at its inlet; one of NetBox's type "other" where the catalogue records none.
    server = b.types()["device-types/Supermicro/SYS-821GE-TNHR.yaml"]["power-ports"]
    assert server == [{"name": f"PSU{k}", "type": "iec-60320-c20"} for k in range(1, 7)]
    assert sn2201["power-ports"] == [{"name": "Power", "type": "other"}]
    assert b.types()["device-types/APC/AP8886.yaml"]["power-ports"] == [{"name": "Power", "type": "other"}]
    # the out-of-band switches are central (the default for its density), in the management racks
    assert {d["name"] for d in devices} >= {"su01-leaf-r1", "storage-leaf-001", "oob-01", "R01-01-pdu-1"}


def test_two_gb300_nvl72_racks_put_each_tray_shelf_and_switch_tray_at_its_own_unit(seeded_catalog):
    result = design_validate(document=_nvl72(2, True))
    b = _check(result)
    devices = b.csv("devices.csv")
    kinds = Counter(d["device_type"] for d in devices if d["device_type"].startswith("SRS-GB300-NVL72 "))
    assert kinds == {
        "SRS-GB300-NVL72 compute tray": 36,
        "SRS-GB300-NVL72 NVLink switch tray": 18,
        "SRS-GB300-NVL72 power shelf": 16,
    }
    trays = [d for d in devices if d["device_type"] == "SRS-GB300-NVL72 compute tray"]
    # Each tray carries the name its compute cables give it, at its own unit of its 48U rack.
    assert {d["name"] for d in trays} == {f"node-{n:04d}" for n in range(1, 37)}
    assert len({(d["rack"], d["position"]) for d in trays}) == 36
    racks = {r["name"]: r["u_height"] for r in b.csv("racks.csv")}
    assert {racks[d["rack"]] for d in trays} == {"48"}
    assert b.types()["device-types/Supermicro/srs-gb300-nvl72-compute-tray.yaml"]["u_height"] == 1
    systems = trays
    q3400 = b.types()["device-types/NVIDIA/Q3400-RA.yaml"]
    assert {i["type"] for i in q3400["interfaces"]} == {"infiniband-xdr"} and len(q3400["interfaces"]) == 144
    assert not [f for f in b.csv("power-feeds.csv") if f["rack"] in {d["rack"] for d in systems}]


def test_the_longest_naming_template_keeps_every_name_within_netboxs_64_characters(seeded_catalog):
    prefix = "a" * MAX_PREFIX
    b = _check(design_validate(document={**hgx(8), "site": {"prefix": prefix, "digits": MAX_DIGITS, "first": 0}}))
    assert f"{prefix}{0:0{MAX_DIGITS}d}" in {d["name"] for d in b.csv("devices.csv")}


def test_a_site_naming_template_names_the_devices_and_cables_as_the_cabling_csv(seeded_catalog):
    result = design_validate(document={**hgx(8), "site": {"prefix": "gpu", "digits": 3, "first": 0}})
    b = _check(result)
    names = {d["name"] for d in b.csv("devices.csv")}
    assert {"gpu000", "gpu007"} <= names and not [n for n in names if n.startswith("node-")]
    ends = {c["side_a_device"] for c in b.csv("cables.csv")} | {c["side_b_device"] for c in b.csv("cables.csv")}
    csv_ends = {f.split(",")[i] for f in cabling(result) for i in (0, 2)}
    assert ends - csv_ends == {"customer-network"} and "gpu000" in ends


@pytest.mark.parametrize(("kind", "size"), [("hgx", 4), ("hgx", 64), ("hgx", 2048), ("nvl72", 2), ("nvl72", 8)])
def test_every_cabling_row_is_exactly_one_cable(seeded_catalog, kind, size):
    b = _check(design_validate(document=hgx(size) if kind == "hgx" else nvl72(size)))
    customer = [d for d in b.csv("devices.csv") if not d["rack"]]
    uplinks = [c for c in b.csv("cables.csv") if c["side_b_device"] == "customer-network"]
    if kind == "hgx":  # no in-band network: the out-of-band uplinks land on the customer's network
        assert [d["name"] for d in customer] == ["customer-network"] and uplinks
        assert all(c["side_b_name"].startswith(f"uplink-net-0{c['side_a_name'][1:]}/{c['side_a_device']}/")
                   for c in uplinks)  # fmt: skip
    else:  # they land on free ports of the converged storage network's leaves, beside its storage systems' ports
        assert [d["name"] for d in customer] == ["customer-storage"] and not uplinks


def test_the_site_is_named_as_the_design_else_by_its_hash(seeded_catalog):
    doc = hgx(4)
    b = bundle(design_validate(document={**doc, "name": "Amsterdam H200, hall 2"}))
    assert b.csv("sites.csv")[0]["name"] == "Amsterdam H200, hall 2"
    assert b.csv("sites.csv")[0]["slug"] == "amsterdam-h200-hall-2"
    assert {r["site"] for r in b.csv("racks.csv")} == {"Amsterdam H200, hall 2"}
    assert {c["side_a_site"] for c in b.csv("cables.csv")} == {"Amsterdam H200, hall 2"}
    result = design_validate(document={**doc, "name": ""})
    assert bundle(result).csv("sites.csv")[0]["name"] == f"cluster-{result.design_hash[:8]}"


def test_a_stored_configuration_with_an_unnamed_design_names_the_site_as_itself(seeded_catalog):
    doc = {**hgx(4), "name": ""}
    configuration = ConfigurationFactory(document=doc, name="Hall 2 pilot")
    body = b"".join(configuration_export(configuration=configuration, name="netbox.zip").body)  # type: ignore[arg-type]
    assert Bundle(body).csv("sites.csv")[0]["name"] == "Hall 2 pilot"


def test_a_field_with_a_comma_or_a_quote_reads_back_as_itself(seeded_catalog, monkeypatch):
    """A port, a cable part or a manufacturer with a comma or a quote (a catalogue may hold one) is quoted where the
    bundle's CSV files hold it: NetBox's import reads it back as it is, every cabling row still one cable."""
    import outputs.netbox as netbox

    rows, kind = netbox.cabling_rows, netbox.device_type

    def odd_rows(result, network=True):
        for f in rows(result, network):
            if f[0] == "node-0003" and f[1] == "nic2":
                f = (f[0], "nic2,x", *f[2:5], 'cable "7", red', *f[6:])
            yield f

    def odd_maker(part, height, catalog):
        found = kind(part, height, catalog)
        found.manufacturer = found.manufacturer.replace("Supermicro", "Super Micro, Inc.")
        return found

    result = design_validate(document=hgx(4))
    monkeypatch.setattr(netbox, "cabling_rows", odd_rows)
    monkeypatch.setattr(netbox, "device_type", odd_maker)
    b = bundle(result)
    cables = b.csv("cables.csv")
    odd = [c for c in cables if (c["side_a_device"], c["side_a_name"]) == ("node-0003", "nic2,x")]
    assert len(odd) == 1 and odd[0]["description"] == 'cable "7", red' and odd[0]["side_b_name"].startswith("p")
    assert ("node-0003", "nic2,x") in {(i["device"], i["name"]) for i in b.csv("interfaces.csv")}
    assert len(cables) == len(list(odd_rows(result)))
    assert {d["manufacturer"] for d in b.csv("devices.csv") if d["name"] == "node-0003"} == {"Super Micro, Inc."}


def test_a_row_that_is_no_cable_is_listed_in_the_readme_as_the_cabling_csv_has_it(seeded_catalog, monkeypatch):
    """A compute row whose end is in no rack of the plan is left out of cables.csv, and the README lists it as its
    line of the cabling CSV (its network column included) with the reason."""
    import outputs.netbox as netbox

    rows = netbox.cabling_rows

    def ghost_rows(result, network=True):
        for f in rows(result, network):
            yield ("ghost-01", *f[1:]) if f[:2] == ("node-0003", "nic2") else f

    result = design_validate(document=hgx(4))
    line = next(r for r in cabling(result) if r.startswith("node-0003,nic2,"))
    monkeypatch.setattr(netbox, "cabling_rows", ghost_rows)
    readme = bundle(result).readme
    assert f"  {line.replace('node-0003', 'ghost-01', 1)}  -- ghost-01 is in no rack of the plan" in readme

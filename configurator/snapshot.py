"""The only bridge from the ORM to the engines: the catalogue as frozen dataclasses.

The whole catalogue is read in a fixed number of queries (parts with their specs, slots, PCIe switches and
accepted GPUs) and kept in memory until any part changes: a cheap aggregate over ``Part`` tells when. The
snapshot therefore costs one query per request when warm and seven when cold, whatever the catalogue size.

Every write to a part's specs (spec row, slot, PCIe switch, accepted GPUs) touches ``Part.updated_at``
(catalog/signals.py), so the aggregate sees spec changes as well as price changes; a deleted part changes the
part count.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import SupportsFloat, TypedDict, TypeVar

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.db.models import Count, Max

from catalog.models import (
    SPEC_MODELS,
    SPEC_RELATED,
    CatalogRelease,
    DefaultPart,
    DriveBay,
    Part,
    PcieSwitch,
    Server,
    ServerSlot,
    spec_relation,
)
from catalog.services import SEED_PATH, part_values, reference_systems, spec_values
from design import specs as s
from design import vocabulary as v
from engines.catalog_view import CatalogView

_E = TypeVar("_E", bound=Enum)

_lock = threading.Lock()
_cache: dict[str, object] = {"key": None, "view": None, "checked": 0.0}
# One round trip tells whether any part or release changed (table names come from the models, not from input).
_FRESHNESS_SQL = (
    f"SELECT (SELECT COUNT(*) FROM {Part._meta.db_table}), (SELECT MAX(updated_at) FROM {Part._meta.db_table}), "  # noqa: S608
    f"(SELECT COUNT(*) FROM {CatalogRelease._meta.db_table})"
)


class _Common(TypedDict):
    """The fields every part's spec has (design.specs.PartBase), read from its catalogue row."""

    part_number: str
    name: str
    manufacturer: str
    price_eur: Decimal | None
    lifecycle: str
    replacement: str


def _f(value: SupportsFloat | None) -> float | None:
    return None if value is None else float(value)


def _enum(enum: type[_E], value: str | None) -> _E | None:
    return enum(value) if value else None


def _node_contents(sv: Server, bays: Iterable[DriveBay], defaults: Iterable[DefaultPart]) -> dict:
    """What the board takes: sockets, memory channels, M.2 slots, drive bays and the default node set."""
    return {
        "cpu_socket": sv.cpu_socket,
        "cpu_families": tuple(sv.cpu_families or ()),
        "memory_channels_per_socket": sv.memory_channels_per_socket,
        "dimms_per_channel": sv.dimms_per_channel,
        "memory_speed_1dpc_mts": sv.memory_speed_1dpc_mts,
        "memory_speed_2dpc_mts": sv.memory_speed_2dpc_mts,
        "m2_slots": sv.m2_slots,
        "drive_bays": tuple(
            s.DriveBaySpec(count=b.count, form_factor=b.form_factor, interface=b.interface) for b in bays
        ),
        "default_parts": tuple(
            s.DefaultPartSpec(role=d.role, part_number=d.part.part_number, quantity=d.quantity, source=d.source)
            for d in defaults
        ),
    }


_RACK_SCALE_FIELDS = (
    "rack_scale",
    "nvlink_domain_gpus",
    "compute_trays",
    "gpus_per_tray",
    "cpus_per_tray",
    "switch_trays",
    "compute_nic_model",
    "dpus_per_tray",
    "dpu_model",
    "dpu_ports",
    "tray_drives",
    "power_shelves",
    "power_shelf_w",
    "rack_power_w",
    "rack_mgmt_switches",
    "rack_mgmt_switch_model",
    "cdu_kw",
    "weight_kg",
)


def _rack_scale(sv: Server) -> dict:
    """A rack-scale NVLink system's own facts (trays, power shelves, in-rack switches, weight); unset elsewhere."""
    return {name: getattr(sv, name) for name in _RACK_SCALE_FIELDS}


def _server(
    part: Part,
    common: _Common,
    slots: Iterable[ServerSlot],
    switches: Iterable[PcieSwitch],
    accepts: Iterable[str],
    bays: Iterable[DriveBay] = (),
    defaults: Iterable[DefaultPart] = (),
) -> s.ServerSpec:
    sv = part.server
    return s.ServerSpec(
        **common,
        height_u=sv.height_u,
        cpu_platform=sv.cpu_platform,
        cpu_sockets=sv.cpu_sockets,
        cpu_tdp_w=sv.cpu_tdp_w,
        dimm_slots=sv.dimm_slots,
        psu_count=sv.psu_count,
        psu_watts=sv.psu_watts,
        psu_redundant=sv.psu_redundant,
        psu_inlet=sv.psu_inlet or None,
        cooling=_enum(v.Cooling, sv.cooling),
        accepts=frozenset(accepts),
        accepts_complete=sv.accepts_complete,
        max_gpu_cards=sv.max_gpu_cards,
        slots_known=sv.slots_known,
        slots_complete=sv.slots_complete,
        integrated_nics=sv.integrated_nics,
        integrated_nic_speed_gbps=sv.integrated_nic_speed_gbps,
        integrated_nic_connector=_enum(v.Connector, sv.integrated_nic_connector),
        integrated_nic_top=_enum(v.Top, sv.integrated_nic_top),
        integrated_nic_protocol=_enum(v.Protocol, sv.integrated_nic_protocol),
        integrated_nic_ethernet_links=sv.integrated_nic_ethernet_links,
        **_node_contents(sv, bays, defaults),
        **_rack_scale(sv),
        pcie_switches=tuple(
            s.PcieSwitchSpec(
                name=w.name,
                cpu_socket=w.cpu_socket,
                uplink_gen=w.uplink_gen,
                uplink_lanes=w.uplink_lanes,
                gpus=tuple(w.gpus),
            )
            for w in switches
        ),
        slots=tuple(
            s.SlotSpec(
                name=sl.name,
                form=_enum(v.SlotForm, sl.form),
                pcie_gen=sl.pcie_gen,
                lanes=sl.lanes,
                cpu_socket=sl.cpu_socket,
                pcie_switch=sl.pcie_switch.name if sl.pcie_switch else None,
                gpus=tuple(sl.gpus),
                for_gpu=sl.for_gpu,
            )
            for sl in slots
        ),
    )


def _rack(part: Part, common: _Common) -> s.PartSpec:
    """A rack, for the rack plan and its bill of materials."""
    return s.RackPartSpec(**common, height_u=part.rack.height_u)


def _pdu(part: Part, common: _Common) -> s.PartSpec:
    """A power distribution unit: its feed and outlets."""
    p = part.pdu
    return s.PduSpec(
        **common,
        power_kw=_f(p.power_kw),
        outlets_c13=p.outlets_c13,
        outlets_c19=p.outlets_c19,
        height_u=p.height_u,
        phases=p.phases,
        current_a=p.current_a,
        voltage_v=p.voltage_v,
    )


def _power_cord(part: Part, common: _Common) -> s.PartSpec:
    """A power cord: the connector at the PDU (end A) and at the device (end B)."""
    c = part.power_cord
    return s.PowerCordSpec(
        **common,
        a_connector=c.a_connector,
        b_connector=c.b_connector,
        length_m=_f(c.length_m),
        current_a=c.current_a,
    )


def _cpu(part: Part, common: _Common) -> s.PartSpec:
    """A processor."""
    c = part.cpu
    return s.CpuSpec(
        **common,
        vendor=c.vendor,
        family=c.family,
        socket=c.socket,
        tdp_w=c.tdp_w,
        cores=c.cores,
        memory_channels=c.memory_channels,
        memory_speed_mts=c.memory_speed_mts,
        memory_speed_2dpc_mts=c.memory_speed_2dpc_mts,
        pcie_lanes=c.pcie_lanes,
    )


def _memory(part: Part, common: _Common) -> s.PartSpec:
    """A memory module (DIMM)."""
    m = part.memory
    return s.MemorySpec(**common, memory_type=m.memory_type, size_gb=m.size_gb, speed_mts=m.speed_mts, ranks=m.ranks)


def _drive(part: Part, common: _Common) -> s.PartSpec:
    """A boot or data drive."""
    d = part.drive
    return s.DriveSpec(
        **common,
        use=d.use,
        form_factor=d.form_factor,
        capacity_gb=d.capacity_gb,
        interface=d.interface,
        pcie_gen=d.pcie_gen,
        pcie_lanes=d.pcie_lanes,
    )


def _spec(
    part: Part,
    slots: Iterable[ServerSlot],
    switches: Iterable[PcieSwitch],
    accepts: Iterable[str],
    bays: Iterable[DriveBay] = (),
    defaults: Iterable[DefaultPart] = (),
) -> s.PartSpec:
    """The engines' spec of one catalogue part: its common fields plus those of its kind (one converter per kind).
    A part of a category without a spec model ("other"), or without its spec row, is a plain part."""
    common: _Common = {
        "part_number": part.part_number,
        "name": part.name,
        "manufacturer": part.manufacturer,
        "price_eur": part.list_price_eur,
        "lifecycle": part.lifecycle,
        "replacement": part.replacement,
    }
    cat = part.category
    model = SPEC_MODELS.get(cat)
    if model is not None and hasattr(part, spec_relation(model)):
        if cat == "server":
            return _server(part, common, slots, switches, accepts, bays, defaults)
        return CONVERTERS[cat](part, common)
    return s.PartBase(**common, category=v.Category(cat) if cat in set(v.Category) else v.Category.OTHER)


def _gpu(part: Part, common: _Common) -> s.PartSpec:
    """A GPU or HGX baseboard."""
    g = part.gpu
    return s.GpuSpec(
        **common,
        gpu_model=g.gpu_model,
        generation=g.generation,
        is_board=g.is_board,
        gpu_count=g.gpu_count,
        memory_gb=_f(g.memory_gb),
        nvlink_gen=g.nvlink_gen,
        nvlink_gbps=g.nvlink_gbps,
        nvswitch_count=g.nvswitch_count,
        tdp_w=g.tdp_w,
        form=_enum(v.CardForm, g.form),
        slot_width=g.slot_width,
        bridge_sizes=frozenset(g.bridge_sizes),
        host_pcie_gen=g.host_pcie_gen,
        ref_system=g.ref_system,
        ref_system_max_w=g.ref_system_max_w,
        advised_fabric_gbps=g.advised_fabric_gbps,
        bf16_dense_tflops=_f(g.bf16_dense_tflops),
        fp8_dense_tflops=_f(g.fp8_dense_tflops),
        ai_enterprise_included_years=g.ai_enterprise_included_years,
    )


def _bridge(part: Part, common: _Common) -> s.PartSpec:
    """An NVLink bridge."""
    return s.BridgeSpec(**common, ways=part.bridge.ways)


def _adapter(part: Part, common: _Common) -> s.PartSpec:
    """A network adapter (NIC, SuperNIC or DPU)."""
    a = part.adapter
    return s.AdapterSpec(
        **common,
        family=a.family,
        ports=a.ports,
        speed_gbps=a.speed_gbps,
        connector=_enum(v.Connector, a.connector),
        protocol=v.Protocol(a.protocol),
        host_pcie_gen=a.host_pcie_gen,
        host_lanes=a.host_lanes,
        form=_enum(v.CardForm, a.form),
        slot_width=a.slot_width,
        watts=_f(a.watts),
        top=_enum(v.Top, a.top),
        is_dpu=a.is_dpu,
        socket_direct=a.socket_direct,
        ethernet_links=a.ethernet_links,
    )


def _switch(part: Part, common: _Common) -> s.PartSpec:
    """A fabric or management switch."""
    w = part.switch
    return s.SwitchSpec(
        **common,
        protocol=v.Protocol(w.protocol),
        generation=w.generation,
        cages=w.cages,
        cage_connector=_enum(v.Connector, w.cage_connector),
        logical_ports_per_cage=w.logical_ports_per_cage,
        port_speed_gbps=w.port_speed_gbps,
        max_split=w.max_split,
        height_u=w.height_u,
        managed=w.managed,
        watts=_f(w.watts),
        management=w.management,
        rj45_ports=w.rj45_ports,
        top=_enum(v.Top, w.top),
        embedded_sm_max_nodes=w.embedded_sm_max_nodes,
    )


def _media(part: Part, common: _Common) -> s.PartSpec:
    """A cable or transceiver, with both of its ends."""
    m = part.media
    return s.MediaSpec(
        **common,
        category=v.Category(part.category),
        kind=v.MediaKind(m.kind),
        end_a=s.MediaEnd(
            connector=v.Connector(m.a_connector),
            speed_gbps=m.a_speed_gbps,
            top=_enum(v.Top, m.a_top),
            legs=m.a_legs,
            twin=m.a_twin,
        ),
        end_b=s.MediaEnd(
            connector=v.Connector(m.b_connector),
            speed_gbps=m.b_speed_gbps,
            top=_enum(v.Top, m.b_top),
            legs=m.b_legs,
            twin=m.b_twin,
        ),
        length_m=_f(m.length_m),
        reach_m=_f(m.reach_m),
        fibre=m.fibre or None,
        watts=_f(m.watts),
        protocol=v.Protocol(m.protocol),
        purpose=_enum(v.MediaPurpose, m.purpose),
    )


# Catalogue category → its converter: one for every part kind of catalog.models.SPEC_MODELS but the server, whose
# converter also takes its slots, PCIe switches, accepted GPUs, drive bays and default node set. A kind without a
# converter stops the snapshot from loading, so a new part kind cannot reach the engines as a plain part.
CONVERTERS: dict[str, Callable[[Part, _Common], s.PartSpec]] = {
    "gpu": _gpu,
    "bridge": _bridge,
    "adapter": _adapter,
    "switch": _switch,
    "cable": _media,
    "transceiver": _media,
    "cpu": _cpu,
    "memory": _memory,
    "drive": _drive,
    "rack": _rack,
    "pdu": _pdu,
    "power_cord": _power_cord,
}
if _missing := sorted(set(SPEC_MODELS) - {"server", *CONVERTERS}):
    raise ImproperlyConfigured(f"configurator/snapshot.py has no converter for part kind(s): {', '.join(_missing)}")


def catalog_version() -> str:
    """The version quoted on receipts: the seed or price-list release, the last change to any part or its specs
    (to the microsecond) and the part count, so an edit, an addition and a deletion each give a new version:
    ``2026.11.3+20261130061900123456-412``."""
    release = CatalogRelease.objects.order_by("-created_at", "-id").first()
    agg = Part.objects.aggregate(m=Max("updated_at"), n=Count("id"))
    base = release.version if release else "unversioned"
    return f"{base}+{agg['m']:%Y%m%d%H%M%S%f}-{agg['n']}" if agg["m"] else base


def _load() -> CatalogView:
    parts = list(Part.objects.select_related(*SPEC_RELATED))
    slots = defaultdict(list)
    for sl in ServerSlot.objects.select_related("pcie_switch").order_by("server_id", "position", "name"):
        slots[sl.server_id].append(sl)
    switches = defaultdict(list)
    for sw in PcieSwitch.objects.order_by("server_id", "name"):
        switches[sw.server_id].append(sw)
    accepts = defaultdict(list)
    through = Server.accepts.through
    pn = {p.pk: p.part_number for p in parts}
    for row in through.objects.values_list("server_id", "part_id"):
        accepts[row[0]].append(pn[row[1]])
    bays = defaultdict(list)
    for bay in DriveBay.objects.order_by("server_id", "id"):
        bays[bay.server_id].append(bay)
    defaults = defaultdict(list)
    for d in DefaultPart.objects.select_related("part").order_by("server_id", "role"):
        defaults[d.server_id].append(d)
    view_parts = {
        p.part_number: _spec(p, slots[p.pk], switches[p.pk], accepts[p.pk], bays[p.pk], defaults[p.pk]) for p in parts
    }
    references = _reference_systems()
    _add_reference_cooling(view_parts, references)
    return CatalogView(version=catalog_version(), parts=view_parts, reference_systems=references)


def _add_reference_cooling(view_parts: dict, references: tuple[s.ReferenceSystemSpec, ...]) -> None:
    """Each HGX board learns how its reference system is cooled, from the reference row built on that board."""
    for ref in references:
        board = view_parts.get(ref.board)
        if isinstance(board, s.GpuSpec) and ref.cooling is not None:
            view_parts[ref.board] = dataclasses.replace(board, ref_system_cooling=ref.cooling)


def _reference_systems() -> tuple[s.ReferenceSystemSpec, ...]:
    """NVIDIA's own 8-GPU systems as shipped (catalog.services.reference_systems), for the system-memory rule."""
    return tuple(
        s.ReferenceSystemSpec(
            system=r.system,
            gpu_memory_gb=float(r.gpu_memory_gb),
            system_memory_gb=float(r.system_memory_gb),
            source=r.source,
            board=r.board,
            cooling=v.Cooling(r.cooling) if r.cooling else None,
        )
        for r in reference_systems()
        if r.gpu_memory_gb and r.system_memory_gb
    )


def catalog_snapshot(*, max_age: float | None = None) -> CatalogView:
    """The catalogue as the engines see it, rebuilt only when a part or release changed.

    The freshness check runs at most every ``max_age`` seconds per process (default: the setting
    CATALOG_SNAPSHOT_MAX_AGE, 1 s), so a price or spec change reaches every door within that time and a busy
    process does not pay a query per request. 0 checks on every call.
    """
    if max_age is None:
        max_age = getattr(settings, "CATALOG_SNAPSHOT_MAX_AGE", 1.0)
    now = time.monotonic()
    view = _cache["view"]
    if view is not None and max_age > 0 and now - _cache["checked"] < max_age:  # type: ignore[operator]
        return view  # type: ignore[return-value]
    with connection.cursor() as cursor:
        cursor.execute(_FRESHNESS_SQL)
        key = tuple(cursor.fetchone())
    if _cache["key"] == key and view is not None:
        _cache["checked"] = now
        return view  # type: ignore[return-value]
    with _lock:
        view = _load()
        _cache["key"], _cache["view"], _cache["checked"] = key, view, now
    return view


def clear_cache() -> None:
    _cache["key"], _cache["view"], _cache["checked"] = None, None, 0.0


def seed_view(*, path: Path = SEED_PATH) -> CatalogView:
    """The seed catalogue (catalog/seed/catalog.json) as the engines see it, built in memory by the same conversion
    as the snapshot, without a database: the engine tests and the benchmarks run on the catalogue's own facts.
    Its version is ``seed <version>``."""
    data = json.loads(path.read_text())
    parts: dict[str, tuple[Part, dict]] = {}
    for item in data["parts"]:
        part = Part(part_number=item["part_number"], **part_values(item))
        model = SPEC_MODELS.get(item["category"])
        if model is not None:
            spec = model(**spec_values(item["category"], item.get("spec", {})))  # the part's spec, in memory
            spec.part = part
        parts[part.part_number] = (part, item)
    view = {pn: _seed_spec(part, item, parts) for pn, (part, item) in parts.items()}
    return CatalogView(version=f"seed {data['version']}", parts=view, reference_systems=_reference_systems())


def _seed_spec(part: Part, item: dict, parts: dict[str, tuple[Part, dict]]) -> s.PartSpec:
    """One seed part as a spec; a server with its slots, PCIe switches, drive bays and default node set."""
    if item["category"] != "server":
        return _spec(part, (), (), ())
    keys = ("name", "cpu_socket", "uplink_gen", "uplink_lanes", "gpus")
    switches = sorted(
        (PcieSwitch(**{k: w.get(k, [] if k == "gpus" else None) for k in keys}) for w in item.get("pcie_switches", [])),
        key=lambda w: w.name,
    )
    by_name = {w.name: w for w in switches}
    slots = [
        ServerSlot(
            position=i,
            name=sl["name"],
            form=sl.get("form") or "",
            pcie_gen=sl.get("pcie_gen"),
            lanes=sl.get("lanes"),
            cpu_socket=sl.get("cpu_socket"),
            pcie_switch=by_name.get(sl.get("pcie_switch")),
            gpus=sl.get("gpus", []),
            for_gpu=sl.get("for_gpu", False),
        )
        for i, sl in enumerate(item.get("slots", []))
    ]
    bays = [
        DriveBay(count=b["count"], form_factor=b.get("form_factor", ""), interface=b.get("interface", ""))
        for b in item.get("drive_bays", [])
    ]
    defaults = [
        DefaultPart(role=d["role"], part=parts[d["part"]][0], quantity=d["quantity"], source=d.get("source", ""))
        for d in sorted(item.get("defaults", []), key=lambda d: d["role"])
    ]
    return _spec(part, slots, switches, item.get("accepts", []), bays, defaults)

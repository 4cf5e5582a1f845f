"""Services that write the catalogue: the seed loader and the price-list import."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.db import models, transaction

from design.jsontext import JsonObject

from .locks import transaction_lock
from .models import (
    SPEC_MODELS,
    CatalogRelease,
    DefaultPart,
    DriveBay,
    Part,
    PcieSwitch,
    PsuOption,
    Server,
    ServerSlot,
)

SEED_PATH = Path(__file__).resolve().parent / "seed" / "catalog.json"
PART_FIELDS = (
    "manufacturer",
    "name",
    "category",
    "description",
    "list_price_eur",
    "lead_time_days",
    "lifecycle",
    "lifecycle_source",
    "replacement",
)


class SeedError(Exception):
    """The seed file is malformed; the message names the part and field."""


@dataclass
class LoadReport:
    version: str
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated)


def _spec_values(category: str, spec: JsonObject) -> JsonObject:
    """Map the seed's spec names (the engines' dataclass names) onto model fields."""
    values = dict(spec)
    for end, prefix in (("end_a", "a_"), ("end_b", "b_")):
        if end in values:
            for key, val in values.pop(end).items():
                values[prefix + key] = val
    # A text field the seed leaves null is stored blank (unknown), whichever part kind it belongs to.
    model = SPEC_MODELS[category]
    for text in model._meta.concrete_fields:
        if isinstance(text, models.CharField) and not text.null and values.get(text.name, "") is None:
            values[text.name] = ""
    if "bridge_sizes" in values:
        values["bridge_sizes"] = sorted(values["bridge_sizes"])
    # JSON numbers with a fraction go to DecimalFields through their text, so 16.7 stays 16.7.
    return {k: Decimal(str(v)) if isinstance(v, float) else v for k, v in values.items()}


def _normalise(value: Any) -> Any:
    """One comparable form for numbers from JSON (int, float) and from the database (Decimal)."""
    if isinstance(value, float):
        value = Decimal(str(value))
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else format(value.normalize(), "f")
    return value


def _state(obj: models.Model, names: Iterable[str]) -> dict[str, Any]:
    return {n: _normalise(getattr(obj, n)) for n in names}


def catalog_load_seed(*, path: Path = SEED_PATH) -> LoadReport:
    """Load the versioned seed file idempotently: create missing parts, update changed ones, touch nothing else.

    Loading the same file twice changes nothing and records no new release. Loads run one at a time across
    machines (a database lock): a second load started at once waits, then finds the parts there.
    """
    raw = path.read_bytes()
    try:
        data = json.loads(raw)
        version = data["version"]
        parts = data["parts"]
    except (ValueError, KeyError) as exc:
        raise SeedError(f"{path.name}: not a catalogue seed file ({exc})") from exc
    report = LoadReport(version=version)
    checksum = hashlib.sha256(raw).hexdigest()
    with transaction.atomic():
        transaction_lock("catalog.load_seed")
        existing = {p.part_number: p for p in Part.objects.all()}
        accepts: dict[str, list[str]] = {}
        defaults: dict[str, list[dict]] = {}
        for index, item in enumerate(parts):
            pn = item.get("part_number")
            if not pn or item.get("category") not in SPEC_MODELS and item.get("category") != "other":
                raise SeedError(f"parts[{index}]: missing part_number or unknown category {item.get('category')!r}")
            changed = _load_part(item, existing.get(pn))
            if pn not in existing:
                report.created.append(pn)
            elif changed:
                report.updated.append(pn)
            else:
                report.unchanged += 1
            if item["category"] == "server":
                accepts[pn] = item.get("accepts", [])
                defaults[pn] = item.get("defaults", [])
        _load_accepts(accepts, report)
        _load_defaults(defaults, report)
        latest = CatalogRelease.objects.order_by("-created_at", "-id").first()
        if report.changed or latest is None or latest.checksum != checksum:
            CatalogRelease.objects.create(version=version, checksum=checksum, source=f"seed {path.name}")
    return report


def part_values(item: JsonObject) -> JsonObject:
    """A seed part's ``Part`` fields (blank texts, the default lifecycle, the price as a Decimal)."""
    values = {f: item.get(f) for f in PART_FIELDS}
    for text in ("description", "lifecycle_source", "replacement"):
        values[text] = values[text] or ""
    values["lifecycle"] = values["lifecycle"] or "active"
    if values["list_price_eur"] is not None:
        values["list_price_eur"] = Decimal(str(values["list_price_eur"]))
    return values


def spec_values(category: str, spec: JsonObject) -> JsonObject:
    """A seed part's spec model fields (see _spec_values)."""
    return _spec_values(category, spec)


def _load_part(item: JsonObject, part: Part | None) -> bool:
    values = part_values(item)
    changed = False
    if part is None:
        part = Part(part_number=item["part_number"], **values)
        part.full_clean()
        part.save()
        changed = True
    elif _state(part, PART_FIELDS) != {k: _normalise(v) for k, v in values.items()}:
        for k, v in values.items():
            setattr(part, k, v)
        part.full_clean()
        part.save()
        changed = True
    model = SPEC_MODELS.get(item["category"])
    if model is None:
        return changed
    spec_values = _spec_values(item["category"], item.get("spec", {}))
    spec_values["sources"] = item.get("sources", {})
    spec = model._default_manager.filter(part=part).first()  # type: ignore[misc]  # each spec model's own ``part``
    names = list(spec_values)
    if spec is None or _state(spec, names) != {k: _normalise(v) for k, v in spec_values.items()}:
        if spec is None:
            spec = model()
            spec.part = part
        for k, v in spec_values.items():
            setattr(spec, k, v)
        try:
            spec.full_clean()
        except Exception as exc:
            raise SeedError(f"{part.part_number}: {exc}") from exc
        spec.save()
        changed = True
    if item["category"] == "server":
        assert isinstance(spec, Server)  # SPEC_MODELS["server"]
        changed |= _load_slots(spec, item.get("pcie_switches", []), item.get("slots", []))
        changed |= _load_rows(
            spec, DriveBay, "drive_bays", ("count", "form_factor", "interface", "shares_slot_lanes"), item
        )
        changed |= _load_rows(spec, PsuOption, "psu_options", ("count", "watts", "redundancy", "default"), item)
    return changed


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # a column of the row, not a reverse relation
    return field


def _load_rows(server: Server, model: type[models.Model], key: str, names: tuple[str, ...], item: JsonObject) -> bool:
    """Replace a server's drive bays or PSU options only when they differ from the seed."""
    blank = {n: _field(model, n).get_default() for n in (*names, "source")}
    want = [{n: row.get(n, blank[n]) for n in (*names, "source")} for row in item.get(key, [])]
    have = [_state(r, (*names, "source")) for r in getattr(server, key).order_by("id")]
    if have == want:
        return False
    getattr(server, key).all().delete()
    for values in want:
        row = model(server=server, **values)
        try:
            row.full_clean()
        except Exception as exc:
            raise SeedError(f"{server.part.part_number} {key}: {exc}") from exc
        row.save()
    return True


def _load_slots(server: Server, switches: list[dict], slots: list[dict]) -> bool:
    """Replace the slot list only when it differs from the seed."""
    want_switches = [
        {
            "name": s["name"],
            "cpu_socket": s.get("cpu_socket"),
            "uplink_gen": s.get("uplink_gen"),
            "uplink_lanes": s.get("uplink_lanes"),
            "gpus": s.get("gpus", []),
            "source": s.get("source", ""),
        }
        for s in switches
    ]
    want_slots = [
        {
            "position": i,
            "name": s["name"],
            "form": s.get("form") or "",
            "pcie_gen": s.get("pcie_gen"),
            "lanes": s.get("lanes"),
            "cpu_socket": s.get("cpu_socket"),
            "pcie_switch": s.get("pcie_switch"),
            "gpus": s.get("gpus", []),
            "for_gpu": s.get("for_gpu", False),
            "source": s.get("source", ""),
        }
        for i, s in enumerate(slots)
    ]
    have_switches = [
        _state(s, ("name", "cpu_socket", "uplink_gen", "uplink_lanes", "gpus", "source"))
        for s in server.pcie_switches.order_by("name")
    ]
    have_slots = [
        {
            **_state(s, ("position", "name", "form", "pcie_gen", "lanes", "cpu_socket", "gpus", "for_gpu", "source")),
            "pcie_switch": s.pcie_switch.name if s.pcie_switch else None,
        }
        for s in server.slots.select_related("pcie_switch").order_by("position")
    ]
    if have_switches == sorted(want_switches, key=lambda s: s["name"]) and have_slots == want_slots:
        return False
    server.slots.all().delete()
    server.pcie_switches.all().delete()
    by_name = {}
    for s in want_switches:
        sw = PcieSwitch(server=server, **s)
        sw.full_clean()
        sw.save()
        by_name[sw.name] = sw
    for s in want_slots:
        switch_name = s.pop("pcie_switch")
        slot = ServerSlot(server=server, pcie_switch=by_name.get(switch_name), **s)
        try:
            slot.full_clean()
        except Exception as exc:
            raise SeedError(f"{server.part.part_number} slot {s['name']}: {exc}") from exc
        slot.save()
    return True


def _load_accepts(accepts: dict[str, list[str]], report: LoadReport) -> None:
    parts = {p.part_number: p for p in Part.objects.filter(category="gpu")}
    for server_pn, gpu_pns in accepts.items():
        missing = [g for g in gpu_pns if g not in parts]
        if missing:
            raise SeedError(f"{server_pn}: accepts unknown GPU part(s) {', '.join(missing)}")
        part = Part.objects.select_related("server").get(part_number=server_pn)
        have = set(part.server.accepts.values_list("part_number", flat=True))
        if have != set(gpu_pns):
            part.server.accepts.set([parts[g] for g in gpu_pns])
            if server_pn not in report.created and server_pn not in report.updated:
                report.updated.append(server_pn)
                report.unchanged -= 1


def _load_defaults(defaults: dict[str, list[dict]], report: LoadReport) -> None:
    """Each server's default node set (CPU, memory, boot drive), by part number; replaced only when it differs."""
    known = {p.part_number: p for p in Part.objects.filter(category__in=["cpu", "memory", "drive"])}
    for server_pn, rows in defaults.items():
        missing = [r.get("part") for r in rows if r.get("part") not in known]
        if missing:
            raise SeedError(f"{server_pn}: defaults name unknown part(s) {', '.join(map(str, missing))}")
        server = Part.objects.select_related("server").get(part_number=server_pn).server
        want = sorted((r["role"], r["part"], r["quantity"], r.get("source", "")) for r in rows)
        have = sorted(
            (d.role, d.part.part_number, d.quantity, d.source) for d in server.default_parts.select_related("part")
        )
        if want == have:
            continue
        server.default_parts.all().delete()
        for role, pn, quantity, source in want:
            row = DefaultPart(server=server, part=known[pn], quantity=quantity, role=role, source=source)
            try:
                row.full_clean()
            except Exception as exc:
                raise SeedError(f"{server_pn} defaults ({role}): {exc}") from exc
            row.save()
        if server_pn not in report.created and server_pn not in report.updated:
            report.updated.append(server_pn)
            report.unchanged -= 1


@dataclass(frozen=True)
class ReferenceSystem:
    """A vendor's own 8-GPU system as it ships: system memory against GPU memory, with the source key."""

    system: str
    gpus: int
    gpu_memory_gb: int
    system_memory_gb: int
    system_memory_max_gb: int | None
    source: str
    board: str = ""  # the HGX baseboard the system is built on
    cooling: str | None = None  # air or liquid (its own source key in the seed row); None: not sourced
    height_u: int | None = None

    @property
    def memory_ratio(self) -> Decimal:
        """System memory per GB of GPU memory, e.g. 3.2 for DGX H100 (2 TB for 640 GB)."""
        return (Decimal(self.system_memory_gb) / Decimal(self.gpu_memory_gb)).quantize(Decimal("0.01"))


def reference_systems(*, path: Path = SEED_PATH) -> list[ReferenceSystem]:
    """The seed's ``reference_systems``: NVIDIA's DGX systems, the yardstick of the system-memory rule."""
    data = json.loads(path.read_text())
    fields = ReferenceSystem.__dataclass_fields__
    return [
        ReferenceSystem(**{k: v for k, v in row.items() if k in fields}) for row in data.get("reference_systems", [])
    ]

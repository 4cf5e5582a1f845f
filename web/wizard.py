"""The wizard's steps, and how each step's form reads from and writes to the design document (design/v1).

Pure document plumbing: no hardware rule lives here. A step turns its cleaned form into a *new* document
(the caller saves it through configurator.services), so the wizard, the API and the quote task keep sharing
one stored design. The wizard edits the first node group; other groups (from the API) are kept untouched.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from design.contract import DEFAULT_SUPPORT_YEARS, SUPPLIED_ITEMS
from design.jsontext import JsonObject

SCHEMA = "design/v1"
GROUP_NAME = "gpu"


@dataclass(frozen=True)
class Step:
    slug: str
    title: Any  # lazy string
    summary: Any


STEPS: tuple[Step, ...] = (
    Step("goal", _("Goal"), _("What you want to train or serve")),
    Step("platform", _("Platform"), _("Nodes, server and GPUs")),
    Step("adapters", _("Adapters"), _("Network cards in each node")),
    Step("fabric", _("Fabric"), _("Switches, cables and optics")),
    Step("review", _("Review"), _("Findings and bill of materials")),
    Step("quote", _("Quote"), _("Request your quote")),
)
STEP_SLUGS = tuple(s.slug for s in STEPS)


def _object(value: object) -> JsonObject:
    """A JSON object of the design, or an empty one when the key is absent or holds something else."""
    return value if isinstance(value, dict) else {}


def step_index(slug: str) -> int:
    return STEP_SLUGS.index(slug)


def next_step(slug: str) -> str | None:
    i = step_index(slug)
    return STEP_SLUGS[i + 1] if i + 1 < len(STEP_SLUGS) else None


def previous_step(slug: str) -> str | None:
    i = step_index(slug)
    return STEP_SLUGS[i - 1] if i > 0 else None


# --- reading the document ----------------------------------------------------------------------------------


def blank_document(*, workload: dict | None = None, name: str = "") -> dict:
    """A new draft: valid JSON for the contract, incomplete for validation until a server is chosen."""
    doc: JsonObject = {"schema": SCHEMA, "name": name, "node_groups": []}
    if workload:
        doc["workload"] = workload
    return doc


def group(doc: dict) -> dict | None:
    groups = doc.get("node_groups")
    if isinstance(groups, list) and groups and isinstance(groups[0], dict):
        return groups[0]
    return None


def components(doc: dict) -> list[dict]:
    g = group(doc)
    comps = g.get("components") if g else None
    return [c for c in comps if isinstance(c, dict)] if isinstance(comps, list) else []


def workload_initial(doc: dict) -> dict:
    w = _object(doc.get("workload"))
    return {
        "kind": w.get("kind") or "training",
        "params_billion": w.get("model_parameters_billion"),
        "gpus": w.get("target_gpus"),
        "nodes": w.get("target_nodes"),
        "mode": w.get("mode") if w.get("mode") in ("pretraining", "full-finetune", "lora") else "pretraining",
        "precision": w.get("precision") or "bf16",
        "context_tokens": w.get("context_tokens"),
        "concurrency": w.get("concurrency"),
        "training_tokens_billion": w.get("training_tokens_billion"),
        "target_days": w.get("target_days"),
    }


def platform_initial(doc: dict, gpu_parts: set[str]) -> dict:
    g = group(doc) or {}
    gpu = next((c for c in components(doc) if c.get("part") in gpu_parts), None)
    return {
        "nodes": g.get("count") or (doc.get("workload") or {}).get("target_nodes") or 1,
        "server": g.get("server") or "",
        "gpu": gpu.get("part") if gpu else "",
        "gpu_quantity": gpu.get("quantity") if gpu else 1,
        **facility_initial(doc),
    }


def facility_initial(doc: dict) -> dict:
    """The site fields of the platform step from the design's ``facility``."""
    f = _object(doc.get("facility"))
    return {
        "rack_power_kw": f.get("rack_power_kw"),
        "cooling": f.get("cooling") or "",
        "pdu_feeds": f.get("pdu_feeds") or "A+B",
    }


def apply_facility(doc: dict, values: dict[str, object]) -> dict:
    """Set the design's ``facility`` rack power, cooling and feeds from ``values`` (only the keys the form sent:
    a post without them changes nothing); an empty field removes its key (the plan's stated default); other
    facility keys (rack_units) stay."""
    new = copy.deepcopy(doc)
    f = dict(new.get("facility") or {}) if isinstance(new.get("facility"), dict) else {}
    for key, raw in values.items():
        value = None if raw in (None, "") else (float(raw) if key == "rack_power_kw" else raw)  # type: ignore[arg-type]
        if value is None:
            f.pop(key, None)
        else:
            f[key] = value
    if f:
        new["facility"] = f
    else:
        new.pop("facility", None)
    return new


def site_initial(doc: dict, supplied: frozenset[str]) -> dict:
    """The review step's site and services fields: what the offer leaves out (``supplied``, the design's own or its
    size's default) and the design's ``services`` (absent: the contract's defaults)."""
    s = _object(doc.get("services"))
    years = s.get("support_years")
    return {
        "supplied": sorted(supplied),
        "support_years": years if isinstance(years, int) and not isinstance(years, bool) else DEFAULT_SUPPORT_YEARS,
        "installation": s.get("installation") is not False,
        "ai_enterprise": s.get("ai_enterprise") is not False,
    }


def apply_site(
    doc: dict,
    *,
    supplied: list[str],
    size_default: frozenset[str],
    support_years: int,
    installation: bool,
    ai_enterprise: bool,
) -> dict:
    """Set the design's ``facility.supplied`` and ``services`` from the review step. A choice equal to the size's
    default is not written, so the design keeps following its size when the node count changes later."""
    new = copy.deepcopy(doc)
    f = dict(new.get("facility") or {}) if isinstance(new.get("facility"), dict) else {}
    if frozenset(supplied) == size_default:
        f.pop("supplied", None)
    else:
        f["supplied"] = [item for item in SUPPLIED_ITEMS if item in supplied]
    if f:
        new["facility"] = f
    else:
        new.pop("facility", None)
    services = {"support_years": int(support_years), "installation": installation, "ai_enterprise": ai_enterprise}
    if services == {"support_years": DEFAULT_SUPPORT_YEARS, "installation": True, "ai_enterprise": True}:
        new.pop("services", None)
    else:
        new["services"] = services
    return new


def adapters_initial(doc: dict, adapter_parts: set[str]) -> dict:
    """The compute and storage adapter lines. A line without a role counts as compute first, storage second."""
    lines = [c for c in components(doc) if c.get("part") in adapter_parts]
    compute = next((c for c in lines if c.get("role") == "compute"), None)
    storage = next((c for c in lines if c.get("role") == "storage"), None)
    for c in lines:
        if c.get("role"):
            continue
        if compute is None:
            compute = c
        elif storage is None:
            storage = c
    return {
        "compute_adapter": compute.get("part") if compute else "",
        "compute_quantity": compute.get("quantity") if compute else 0,
        "storage_adapter": storage.get("part") if storage else "",
        "storage_quantity": storage.get("quantity") if storage else 0,
    }


RACK_KEYS = ("nodes_per_rack", "in_rack_m", "node_to_leaf_m", "leaf_to_spine_m")


def fabric_initial(doc: dict) -> dict:
    f = doc.get("fabric") if isinstance(doc.get("fabric"), dict) else None
    if f is None:
        return {"switch": "", "oversubscription": "1:1", "topology": "rail-optimized"}
    rack = f.get("rack") if isinstance(f.get("rack"), dict) else {}
    return {
        "switch": f.get("switch") or "",
        "oversubscription": f.get("oversubscription") or "1:1",
        "topology": f.get("topology") or "rail-optimized",
        **{k: rack.get(k) for k in RACK_KEYS},
    }


# --- writing the document ----------------------------------------------------------------------------------


def _num(value: Any) -> int | float | None:
    """Form numbers to JSON numbers: whole values as int, so the document reads 70, not 70.0."""
    if value is None or value == "":
        return None
    f = float(value)
    return int(f) if f.is_integer() else f


def apply_goal(
    doc: dict,
    *,
    kind: str,
    params_billion: Any,
    gpus: int | None,
    nodes: int | None,
    mode: str | None = None,
    precision: str | None = None,
    context_tokens: int | None = None,
    concurrency: int | None = None,
    training_tokens_billion: float | None = None,
    target_days: float | None = None,
) -> dict:
    """The goal step's answers as the design's workload (contract design/v1: kind, model size, mode, precision and,
    for inference, the KV cache's context length and concurrency), keeping the fields the wizard does not ask for
    (independent jobs; a training run's tokens and target days)."""
    new = copy.deepcopy(doc)
    old = _object(doc.get("workload"))
    workload: JsonObject = {"kind": kind, "model_parameters_billion": _num(params_billion)}
    if mode:
        workload["mode"] = mode
    if precision:
        workload["precision"] = precision
    if kind == "inference":
        if context_tokens:
            workload["context_tokens"] = int(context_tokens)
        if concurrency:
            workload["concurrency"] = int(concurrency)
    else:
        if training_tokens_billion:
            workload["training_tokens_billion"] = _num(training_tokens_billion)
        if target_days:
            workload["target_days"] = _num(target_days)
    if isinstance(old.get("independent_jobs"), bool):
        workload["independent_jobs"] = old["independent_jobs"]
    if kind == "training":  # the run's tokens and target days, given through the API, stay with a training goal
        for key in ("training_tokens_billion", "target_days"):
            if old.get(key) is not None:
                workload[key] = old[key]
    if gpus:
        workload["target_gpus"] = int(gpus)
    if nodes:
        workload["target_nodes"] = int(nodes)
    new["workload"] = workload
    new.setdefault("schema", SCHEMA)
    new.setdefault("node_groups", [])
    return new


def _ensure_group(doc: dict) -> dict:
    groups = doc.get("node_groups")
    if not isinstance(groups, list):
        groups = doc["node_groups"] = []
    if not groups or not isinstance(groups[0], dict):
        groups[:1] = [{"name": GROUP_NAME, "count": 1, "server": "", "components": []}]
    g = groups[0]
    if not isinstance(g.get("components"), list):
        g["components"] = []
    return g


def node_parts_initial(doc: dict, node_sets: dict[str, set[str]]) -> dict[str, str]:
    """The CPU, memory and boot-drive part the design names, per role ("" where it names none)."""
    out = {}
    for role, parts in node_sets.items():
        line = next((c for c in components(doc) if c.get("part") in parts), None)
        out[role] = line.get("part", "") if line else ""
    return out


def apply_platform(
    doc: dict,
    *,
    nodes: int,
    server: str,
    gpu: str,
    gpu_quantity: int,
    gpu_parts: set[str],
    node_parts: dict[str, tuple[str, int]] | None = None,
    node_sets: dict[str, set[str]] | None = None,
    complete_system: bool = False,
) -> dict:
    """Set the node count, server and GPU line, and the CPU, memory and boot-drive lines named in ``node_parts``
    (role -> (part, quantity per node); a line of that role is replaced, keeping its quantity); adapters and other
    components stay as they were. ``complete_system``: the server is a rack-scale system that comes complete, so
    the group keeps no component lines at all (the count is racks)."""
    new = copy.deepcopy(doc)
    g = _ensure_group(new)
    g["count"] = int(nodes)
    g["server"] = server
    if complete_system:
        g["components"] = []
        _name(new)
        return new
    comps = [c for c in g["components"] if not (isinstance(c, dict) and c.get("part") in gpu_parts)]
    if gpu:
        comps.insert(0, {"part": gpu, "quantity": int(gpu_quantity or 1)})
    for role, (part, quantity) in (node_parts or {}).items():
        parts = (node_sets or {}).get(role, set())
        old = next((c for c in comps if isinstance(c, dict) and c.get("part") in parts), None)
        if old is not None and old.get("part") != part and role == "cpu":
            old = None  # another CPU: as many as the server has sockets, not the old count
        keep = old.get("quantity") if old is not None and isinstance(old.get("quantity"), int) else None
        comps = [c for c in comps if not (isinstance(c, dict) and c.get("part") in parts)]
        comps.append({"part": part, "quantity": keep or int(quantity), "role": role})
    g["components"] = comps
    _name(new)
    return new


def apply_adapters(
    doc: dict,
    *,
    compute_adapter: str,
    compute_quantity: int,
    storage_adapter: str,
    storage_quantity: int,
    adapter_parts: set[str],
) -> dict:
    """Replace the adapter lines with one compute line and one storage line (each optional)."""
    new = copy.deepcopy(doc)
    g = _ensure_group(new)
    comps = [c for c in g["components"] if not (isinstance(c, dict) and c.get("part") in adapter_parts)]
    if compute_adapter and compute_quantity:
        comps.append({"part": compute_adapter, "quantity": int(compute_quantity), "role": "compute"})
    if storage_adapter and storage_quantity:
        comps.append({"part": storage_adapter, "quantity": int(storage_quantity), "role": "storage"})
    g["components"] = comps
    return new


def apply_fabric(doc: dict, *, switch: str, oversubscription: str, topology: str, **rack: Any) -> dict:
    """Set the compute fabric, or remove it when no switch is chosen. Keeps fields the wizard does not edit."""
    new = copy.deepcopy(doc)
    if not switch:
        new["fabric"] = None
        return new
    old = _object(new.get("fabric"))
    fabric = {k: v for k, v in old.items() if k not in ("switch", "oversubscription", "topology", "rack")}
    fabric.update({"switch": switch, "oversubscription": oversubscription, "topology": topology})
    old_rack = _object(old.get("rack"))
    new_rack = {k: v for k, v in old_rack.items() if k not in RACK_KEYS}
    for key in RACK_KEYS:
        value = _num(rack.get(key))
        if value is not None:
            new_rack[key] = value
    if new_rack:
        fabric["rack"] = new_rack
    new["fabric"] = fabric
    return new


AUTO_NAME = re.compile(r"^\d+ × ")


def _name(doc: dict) -> None:
    """A readable default name ("4 × SYS-821GE-TNHR, HGX-H200-8GPU") unless the user named the design."""
    g = group(doc)
    if not g or (doc.get("name") and not AUTO_NAME.match(str(doc["name"]))):
        return
    parts = [f"{g.get('count', 1)} × {g.get('server', '')}"]
    comps = components(doc)
    if comps:
        parts.append(str(comps[0].get("part", "")))
    doc["name"] = ", ".join(p for p in parts if p.strip())


# --- findings and fields -----------------------------------------------------------------------------------

_COMPONENT = re.compile(r"^node_groups\[0\]\.components\[(\d+)\]")


def field_for_subject(doc: dict, subject: str, *, gpu_parts: set[str], adapter_parts: set[str]) -> str | None:
    """Which wizard field a finding's subject concerns, so the message can sit next to that field."""
    if subject.startswith("workload"):
        return "params_billion"
    if subject == "node_groups[0].count":
        return "nodes"
    if subject.startswith("node_groups[0].server"):
        return "server"
    if subject.startswith("fabric"):
        rest = subject[len("fabric") :].lstrip(".")
        if rest.startswith("rack."):
            return rest.split(".")[1]
        return {"oversubscription": "oversubscription", "topology": "topology"}.get(rest, "switch")
    m = _COMPONENT.match(subject)
    if m:
        comps = components(doc)
        i = int(m.group(1))
        if i < len(comps):
            comp = comps[i]
            part = comp.get("part")
            if part in gpu_parts:
                return "gpu_quantity" if subject.endswith(".quantity") else "gpu"
            if comp.get("role") in ("cpu", "memory", "boot"):
                return comp["role"]
            if part in adapter_parts:
                role = comp.get("role") or "compute"
                suffix = "quantity" if subject.endswith(".quantity") else "adapter"
                return f"{role}_{suffix}"
    return None


STEP_FIELDS = {
    "goal": {"kind", "params_billion", "gpus", "nodes"},
    "platform": {"nodes", "server", "gpu", "gpu_quantity", "cpu", "memory", "boot"},
    "adapters": {"compute_adapter", "compute_quantity", "storage_adapter", "storage_quantity"},
    "fabric": {"switch", "oversubscription", "topology", *RACK_KEYS},
}


def step_for_field(field: str | None, subject: str) -> str:
    """The step where a finding about ``subject`` (on wizard field ``field``) is fixed; the review links there."""
    for slug, fields in STEP_FIELDS.items():
        if field in fields:
            return "platform" if field == "nodes" and not subject.startswith("workload") else slug
    if subject.startswith("fabric"):
        return "fabric"
    if subject.startswith("workload"):
        return "goal"
    return "platform"

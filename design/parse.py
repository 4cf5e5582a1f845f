"""Parsing the design document (contract design/v1).

``parse_design`` checks shape and types only and reports every bad field at once, keyed by its path
(``node_groups[0].components[1].quantity``). ``design.references.check_references`` then checks the part
numbers against the catalogue view. Both raise DesignInputError; a design that passes both is *well-formed*,
and the engines report everything else as findings.

Unknown extra keys are ignored, so the contract can grow optional fields; the ``facility`` object is the
exception (design.contract): a typo there would silently drop a limit the planner must keep.
"""

from __future__ import annotations

import re
from typing import Any

from design.contract import (
    DEFAULT_TOPOLOGY,
    MAX_NAME_LENGTH,
    ROLES,
    TOPOLOGIES,
    Checker,
    facility_values,
    oversubscription_beyond_limit,
    rack_values,
    ratio_term,
    type_name,
)
from design.model import (
    SCHEMA,
    ComponentIn,
    DesignIn,
    DesignInputError,
    FabricIn,
    FacilityIn,
    NetworkIn,
    NetworksIn,
    NodeGroupIn,
    RackIn,
    WorkloadIn,
)
from design.vocabulary import FULL_TRAINING_MODES, MODES, PRECISIONS, kind_of

MAX_NODES = 100_000  # "absurd size": no quote covers more nodes than this, in one group or all together
# Bounded work per document: checking costs about 0.6 ms per node group, so a document is refused (with the limit
# named) before anything else is checked, rather than let 60,000 groups run for minutes. Real clusters use a
# handful of groups (compute, storage, management) and a dozen kinds of parts per server.
MAX_NODE_GROUPS = 100
MAX_COMPONENTS_PER_GROUP = 64
MAX_QUANTITY = 1_000  # per node; no server holds more parts of one kind
MAX_PORTS_USED = 16  # per adapter; the catalogue's port count is the real bound (check_references)
MAX_PARAMS_BILLION = 100_000
WORKLOAD_KINDS = ("training", "inference")
WORKLOAD_MODES = MODES
WORKLOAD_PRECISIONS = PRECISIONS
MAX_CONTEXT_TOKENS = 10_000_000
MAX_CONCURRENCY = 1_000_000
NETWORK_KEYS = ("storage", "inband", "oob")  # networks (CONTRACT-R3)
MAX_SYSTEM_PORTS = 100_000  # networks.storage.system_ports
_RATIO = re.compile(r"^(\d+):(\d+)$")
ROOT = "design"  # the path of the document itself
_Checker = Checker  # the component parser's name for it
_type_name = type_name


def parse_design(raw: object) -> DesignIn:
    """Turn a design/v1 document (parsed JSON) into a DesignIn, or raise DesignInputError naming every bad field."""
    c = _Checker()
    doc = c.obj(raw, ROOT)
    if doc is None:
        raise DesignInputError(c.errors)

    if "schema" not in doc:
        c.fail("schema", f'is required and must be "{SCHEMA}"')
    elif doc["schema"] != SCHEMA:
        c.fail("schema", f'must be "{SCHEMA}", not {doc["schema"]!r}')

    name = c.string(doc, "name", "name", required=False, default="", max_length=MAX_NAME_LENGTH) or ""
    workload = _workload(c, doc.get("workload"))
    groups = _node_groups(c, doc)
    fabric = _fabric(c, doc.get("fabric"))
    facility = _facility(c, doc.get("facility"))
    networks = _networks(c, doc.get("networks"))

    if c.errors:
        raise DesignInputError(c.errors)
    return DesignIn(
        name=name, workload=workload, node_groups=groups, fabric=fabric, facility=facility, networks=networks
    )


def _workload(c: _Checker, raw: Any) -> WorkloadIn | None:
    if raw is None:
        return None
    w = c.obj(raw, "workload")
    if w is None:
        return None
    errors_before = len(c.errors)
    mode = c.choice(w, "mode", "workload.mode", WORKLOAD_MODES)
    # kind may be left out when mode says it (mode "inference" is kind inference, every other mode training)
    kind = c.choice(w, "kind", "workload.kind", WORKLOAD_KINDS, required=mode is None)
    if kind is None and mode is not None:
        kind = kind_of(mode)
    if kind is not None and mode is not None and kind_of(mode) != kind:
        c.fail("workload.mode", f"{mode!r} is not a mode of kind {kind!r}")
    precision = c.choice(w, "precision", "workload.precision", WORKLOAD_PRECISIONS, default="bf16") or "bf16"
    if precision == "int4" and (mode in FULL_TRAINING_MODES or (mode is None and kind == "training")):
        c.fail(
            "workload.precision",
            "int4 applies to inference and LoRA (QLoRA) only; full training keeps bf16 or fp8 weights",
        )
    params = c.number(
        w, "model_parameters_billion", "workload.model_parameters_billion", required=True, high=MAX_PARAMS_BILLION
    )
    context = c.integer(
        w,
        "context_tokens",
        "workload.context_tokens",
        required=False,
        low=1,
        high=MAX_CONTEXT_TOKENS,
        what=" of tokens",
    )
    concurrency = c.integer(
        w, "concurrency", "workload.concurrency", required=False, low=1, high=MAX_CONCURRENCY, what=" of sequences"
    )
    if kind == "training":
        for key, value in (("context_tokens", context), ("concurrency", concurrency)):
            if value is not None:
                c.fail(f"workload.{key}", "applies to inference only (it sizes the KV cache)")
    independent = w.get("independent_jobs", False)
    if not isinstance(independent, bool):
        c.fail("workload.independent_jobs", "must be true or false")
    if kind is None or params is None or len(c.errors) > errors_before:
        return None
    return WorkloadIn(
        independent_jobs=independent,
        kind=kind,
        model_parameters_billion=params,
        mode=mode or "",
        precision=precision,
        context_tokens=context,
        concurrency=concurrency,
    )


def _node_groups(c: _Checker, doc: dict) -> tuple[NodeGroupIn, ...]:
    raw = doc.get("node_groups")
    if raw is None:
        c.fail("node_groups", "is required: one or more node groups")
        return ()
    if not isinstance(raw, list):
        c.fail("node_groups", f"must be a list, not {_type_name(raw)}")
        return ()
    if not raw:
        c.fail("node_groups", "must hold at least one node group")
        return ()
    if len(raw) > MAX_NODE_GROUPS:
        c.fail("node_groups", f"holds {len(raw):,} node groups; the most a design may have is {MAX_NODE_GROUPS}")
        return ()
    groups = []
    for i, item in enumerate(raw):
        path = f"node_groups[{i}]"
        g = c.obj(item, path)
        if g is None:
            continue
        name = (
            c.string(g, "name", f"{path}.name", required=False, default=f"group {i + 1}", max_length=MAX_NAME_LENGTH)
            or f"group {i + 1}"
        )
        count = c.integer(g, "count", f"{path}.count", required=True, low=1, high=MAX_NODES, what=" for a node count")
        server = c.string(g, "server", f"{path}.server", required=True)
        components = _components(c, g.get("components"), path)
        if count is not None and server is not None and components is not None:
            groups.append(NodeGroupIn(name=name, count=count, server=server, components=components))
    total = sum(g.count for g in groups)
    if total > MAX_NODES:
        c.fail(
            "node_groups", f"{total:,} nodes in total is an absurd size; the most this tool accepts is {MAX_NODES:,}"
        )
    return tuple(groups)


def _components(c: _Checker, raw: Any, group_path: str) -> tuple[ComponentIn, ...] | None:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        c.fail(f"{group_path}.components", f"must be a list, not {_type_name(raw)}")
        return None
    if len(raw) > MAX_COMPONENTS_PER_GROUP:
        c.fail(
            f"{group_path}.components",
            f"holds {len(raw):,} components; the most a node group may have is {MAX_COMPONENTS_PER_GROUP}",
        )
        return None
    out: list[ComponentIn] = []
    ok = True
    for j, item in enumerate(raw):
        path = f"{group_path}.components[{j}]"
        comp = c.obj(item, path)
        if comp is None:
            ok = False
            continue
        part = c.string(comp, "part", f"{path}.part", required=True)
        quantity = c.integer(
            comp, "quantity", f"{path}.quantity", required=True, low=1, high=MAX_QUANTITY, what=" for one node"
        )
        role = c.choice(comp, "role", f"{path}.role", ROLES)
        slots = _slots(c, comp.get("slots"), f"{path}.slots", quantity)
        # Ports cabled per adapter; the catalogue's port count bounds it (check_references).
        ports_used = c.integer(comp, "ports_used", f"{path}.ports_used", required=False, low=1, high=MAX_PORTS_USED)
        if (
            part is None
            or quantity is None
            or slots is False
            or (ports_used is None and comp.get("ports_used") is not None)
        ):
            ok = False
            continue
        out.append(ComponentIn(part=part, quantity=quantity, role=role, slots=slots, ports_used=ports_used))
    return tuple(out) if ok else None


def _slots(c: _Checker, raw: Any, path: str, quantity: int | None) -> tuple[str, ...] | None | bool:
    """None: not given (the engine places the parts). False: bad."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        c.fail(path, f"must be a list of slot names, not {_type_name(raw)}")
        return False
    bad = False
    for k, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip():
            c.fail(f"{path}[{k}]", f"must be a slot name (a non-empty string), not {_type_name(name)}")
            bad = True
    if bad:
        return False
    if quantity is not None and len(raw) != quantity:
        c.fail(path, f"names {len(raw)} slots for a quantity of {quantity}; give one slot per part")
        return False
    return tuple(raw)


def _fabric(c: _Checker, raw: Any) -> FabricIn | None:
    if raw is None:
        return None
    f = c.obj(raw, "fabric")
    if f is None:
        return None
    errors_before = len(c.errors)
    switch = c.string(f, "switch", "fabric.switch", required=True)
    ratio = c.string(f, "oversubscription", "fabric.oversubscription", required=False, default="1:1") or "1:1"
    m = _RATIO.match(ratio)
    if m is None or ratio_term(m.group(1)) == 0 or ratio_term(m.group(2)) == 0:
        c.fail("fabric.oversubscription", f"must look like 1:1 or 2:1 (two whole numbers above 0), not {ratio!r}")
    elif message := oversubscription_beyond_limit(ratio, ratio_term(m.group(1)), ratio_term(m.group(2))):
        c.fail("fabric.oversubscription", message)
    topology = c.choice(f, "topology", "fabric.topology", TOPOLOGIES, default=DEFAULT_TOPOLOGY)
    hca = c.string(f, "hca", "fabric.hca", required=False)
    rails = c.integer(f, "rails", "fabric.rails", required=False, low=1, high=MAX_QUANTITY, what=" for rails")
    rack = _rack(c, f.get("rack"))
    if len(c.errors) > errors_before or switch is None:
        return None
    return FabricIn(
        switch=switch, oversubscription=ratio, topology=topology or DEFAULT_TOPOLOGY, hca=hca, rails=rails, rack=rack
    )


def _rack(c: _Checker, raw: Any) -> RackIn:
    return RackIn(**rack_values(c, raw, "fabric.rack"))


def _facility(c: _Checker, raw: Any) -> FacilityIn:
    """The optional ``facility`` (design.contract.facility_values)."""
    return FacilityIn(**facility_values(c, raw, "facility"))


def _networks(c: _Checker, raw: Any) -> NetworksIn | None:
    """The optional ``networks`` (CONTRACT-R3): storage, inband and oob, each null (the customer supplies it) or
    an object; unknown keys are refused at every level, so a typo never silently drops a network."""
    if raw is None:
        return None
    n = c.obj(raw, "networks")
    if n is None:
        return None
    for key in n:
        if key not in NETWORK_KEYS:
            c.fail(f"networks.{key}", f"unknown key '{key}'; use storage, inband or oob")
    values = {key: _network(c, n[key], key) for key in NETWORK_KEYS if key in n}
    return NetworksIn(**values)


def _network(c: _Checker, raw: Any, key: str) -> NetworkIn | None:
    path = f"networks.{key}"
    if raw is None:
        return None
    if not isinstance(raw, dict):
        c.fail(path, f"must be an object or null, not {_type_name(raw)}")
        return None
    allowed = "use switch" if key == "oob" else "use switch, oversubscription or system_ports"
    for k in raw:
        if k not in ("switch", "oversubscription", "system_ports"):
            c.fail(f"{path}.{k}", f"unknown key '{k}'; {allowed}")
    switch = c.string(raw, "switch", f"{path}.switch", required=False)
    if "switch" in raw and raw["switch"] is not None and switch is not None and not switch.strip():
        c.fail(f"{path}.switch", "must not be empty")
    ratio = None
    if "oversubscription" in raw:
        if key == "oob":
            c.fail(f"{path}.oversubscription", "oversubscription does not apply to the out-of-band network")
        else:
            ratio = _ratio(c, raw, f"{path}.oversubscription")
    ports = None
    if "system_ports" in raw:
        if key != "storage":
            c.fail(f"{path}.system_ports", "system_ports applies to the storage network only")
        else:
            ports = c.integer(
                raw,
                "system_ports",
                f"{path}.system_ports",
                required=False,
                low=0,
                high=MAX_SYSTEM_PORTS,
                what=" of ports",
            )
    return NetworkIn(switch=switch, oversubscription=ratio, system_ports=ports)


def _ratio(c: _Checker, obj: dict, path: str) -> str | None:
    """``d:u`` as ``fabric.oversubscription`` takes it (same syntax, same limits)."""
    ratio = c.string(obj, "oversubscription", path, required=False)
    if ratio is None:
        return None
    m = _RATIO.match(ratio)
    if m is None or ratio_term(m.group(1)) == 0 or ratio_term(m.group(2)) == 0:
        c.fail(path, f"must look like 1:1 or 2:1 (two whole numbers above 0), not {ratio!r}")
        return None
    if message := oversubscription_beyond_limit(ratio, ratio_term(m.group(1)), ratio_term(m.group(2))):
        c.fail(path, message)
        return None
    return ratio

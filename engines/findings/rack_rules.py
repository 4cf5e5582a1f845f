# ruff: noqa: E501  (message ids and sources are kept whole, one line each, as translators see them)
"""Rule registry entries of the rack planner (engines.racks)."""

from __future__ import annotations

from .rack_codes import RackCode
from .rule import INFO, E, Rule, W, gettext_noop, rule

# Rack planner (engines.racks; codes in rack_codes.RackCode). Facts the catalogue lacks (switch power, PDU models, node inlets) are info:
# the plan states what it could not size; only a rack the hardware cannot work in is an error.
_RA_POWER = "engines/racks/plan.py: air ~25-30 kW per rack (The Register 2023; NVIDIA DGX SuperPOD B200 RA-11334-001, B300 RA); liquid 8 x 4U HGX per rack (Supermicro, xAI Colossus)"
_RA_LAYOUT = "NVIDIA DGX SuperPOD reference architectures (one SU per row; networking switches in racks of their own); EIA-310 rack units"
_RACK_RULES = (
    (
        RackCode.POWER_DEFAULT,
        INFO,
        gettext_noop("Rack power limit assumed"),
        gettext_noop(
            "The design names no rack power, so the plan uses the default for its cooling type: about 30 kW per air-cooled rack and 80 kW per liquid-cooled rack."
        ),
        _RA_POWER,
    ),
    (
        RackCode.COOLING_DEFAULT,
        INFO,
        gettext_noop("Facility cooling assumed"),
        gettext_noop(
            "The design names no cooling, so the plan takes liquid cooling if any server is liquid-cooled, else air."
        ),
        _RA_POWER,
    ),
    (
        RackCode.NODE_TOO_TALL,
        E,
        gettext_noop("Server taller than the rack"),
        gettext_noop(
            "A server needs more units than a rack has left after its management switch, leaf switches and PDUs."
        ),
        _RA_LAYOUT,
    ),
    (
        RackCode.NODE_OVER_POWER,
        E,
        gettext_noop("One server draws more than a rack may"),
        gettext_noop("The estimated peak draw of one server is above the facility's power per rack."),
        _RA_POWER,
    ),
    (
        RackCode.NODE_POWER_UNKNOWN,
        INFO,
        gettext_noop("Server power unknown to the rack plan"),
        gettext_noop("Without a power estimate the racks are filled by units only, and their power is unknown."),
        "hardware.md §4 (power budget rule)",
    ),
    (
        RackCode.SWITCH_POWER_UNKNOWN,
        INFO,
        gettext_noop("Switch power unknown"),
        gettext_noop("The sources do not give the switch's power; rack and facility power leave it out."),
        "catalogue (switch watts not sourced)",
    ),
    (
        RackCode.SWITCH_HEIGHT_UNKNOWN,
        INFO,
        gettext_noop("Switch height unknown"),
        gettext_noop("The sources do not give the switch's height; the plan reserves one unit for it."),
        "catalogue (switch height not sourced)",
    ),
    (
        RackCode.SERVER_SIZE_ASSUMED,
        INFO,
        gettext_noop("Control-plane servers racked at an assumed size"),
        gettext_noop(
            "The control plane's servers and UFM appliances are offered as lines, not catalogue parts: the plan reserves an assumed height for each in the management racks and leaves their power out."
        ),
        "engines/racks/packing.py (ASSUMED_SERVER_U, a stated assumption)",
    ),
    (
        RackCode.AIR_DENSITY,
        W,
        gettext_noop("Air cooling cannot carry the rack"),
        gettext_noop(
            "Racks above about 30 kW need containment, rear-door heat exchangers or liquid cooling; room air alone does not carry them."
        ),
        _RA_POWER,
    ),
    (
        RackCode.LIQUID_NODE_IN_AIR,
        E,
        gettext_noop("Liquid-cooled server in an air-cooled facility"),
        gettext_noop(
            "A liquid-cooled server has no heat sinks to run on air; it needs a facility with liquid cooling."
        ),
        "Supermicro -LCC system pages (direct liquid cooling)",
    ),
    (
        RackCode.NO_PDU,
        INFO,
        gettext_noop("No PDU in the catalogue"),
        gettext_noop(
            "The catalogue holds no PDU with a sourced rating, so the racks' PDUs are stated as a need and not priced."
        ),
        "catalog/seed/README.md (no PDU seeded)",
    ),
    (
        RackCode.PDU_KNOWN_LOAD_ONLY,
        INFO,
        gettext_noop("PDUs sized for the known load only"),
        gettext_noop("Part of a rack's load is unknown, so its PDUs cover the known load only."),
        "engines/racks/plan.py (PDU sizing)",
    ),
    (
        RackCode.PDU_OUTLETS_UNKNOWN,
        INFO,
        gettext_noop("PDU outlets not checked"),
        gettext_noop("The PDU's outlets or the servers' power inlets are unknown, so PDUs are sized by power only."),
        "engines/racks/plan.py (PDU sizing)",
    ),
    (
        RackCode.NODE_INLET_UNKNOWN,
        INFO,
        gettext_noop("Server power inlets unknown"),
        gettext_noop("The server's power supply count is unknown, so its power cords are not counted."),
        "catalogue (PSU count not sourced)",
    ),
    (
        RackCode.NODE_HEIGHT_UNKNOWN,
        INFO,
        gettext_noop("Server height unknown"),
        gettext_noop("The sources do not give the server's height, so its nodes are left out of the rack plan."),
        "catalogue (server height not sourced)",
    ),
    (
        RackCode.NO_MANAGEMENT_SWITCH,
        INFO,
        gettext_noop("No management switch in the racks"),
        gettext_noop("No management switch was found, so none is placed and no unit is reserved for it."),
        "NVIDIA DGX SuperPOD H100 RA: out-of-band management network (SN2201)",
    ),
    (
        RackCode.MANAGEMENT_SWITCH_COUNT,
        INFO,
        gettext_noop("One management switch per rack"),
        gettext_noop(
            "The rack plan puts a management switch at the top of every rack; the fabric plan counts them by ports only."
        ),
        "NVIDIA DGX SuperPOD H100 RA: out-of-band management network (SN2201)",
    ),
)
_RACK_POWER_RULES = (
    (
        RackCode.PDU_OVER_CONTINUOUS,
        W,
        gettext_noop("PDU above 80 % of its rating"),
        gettext_noop(
            "A PDU carries more than 80 % of its rating continuously; the electrical code allows a continuous load of 80 % of the circuit's rating."
        ),
        "NEC (NFPA 70) 210.20(A), continuous loads at 80 % of the branch circuit's rating; Geist PDU nameplates derated to 80 % (engines/racks/packing.py)",
    ),
    (
        RackCode.PDU_BUSBAR,
        W,
        gettext_noop("Rack load beyond its zero-U PDUs"),
        gettext_noop(
            "No PDU that fits the rack's zero-U positions carries the rack's load: the rack needs a busbar or power shelf, a higher-rated PDU or fewer nodes."
        ),
        "Dell metered rPDU owner's manual (up to four rPDUs per rack); NEC 210.20(A) (80 %); NVIDIA GB200 NVL72 racks fed by power shelves",
    ),
    (
        RackCode.CORD_OVER_RATING,
        W,
        gettext_noop("Power supply draws more than any catalogued outlet carries"),
        gettext_noop(
            "At its rating a server power supply draws more current than any PDU outlet in the catalogue and its cord are rated for (C13 10 A, C19 16 A). No cord is billed for it: the bill carries the cord it needs on request, and PDUs with outlets and cords rated for the current are needed."
        ),
        "IEC 60320 connector ratings (comms-express.com: C13 10 A, C19 16 A); supply current = its watts / 230 V",
    ),
)
_RACK_SYSTEM_RULES = (
    (
        RackCode.SYSTEM_HALL_POWER,
        INFO,
        gettext_noop("The hall must give a rack-scale system its own power"),
        gettext_noop(
            "The design names no rack power. A rack-scale system (NVL72) is a whole rack with its own power shelves: it is planned at its own stated power, not at the default for racks of servers, and the hall must give each of its racks that power. A rack power the facility names below it is an error."
        ),
        "NVIDIA Enterprise RA GB300 NVL72, System Hardware & Components ('Full rack requiring up to 142 kW'); ServeTheHome on the DGX GB200 NVL72 (120 kW) [S]; engines/racks/packing.py",
    ),
)
_RACK_CHECKS = {RackCode.NODE_HEIGHT_UNKNOWN: "engines.cluster.rackplan.build_rack_plan"}
RULES: tuple[Rule, ...] = tuple(
    rule(code, severity, title, explanation, source, (_RACK_CHECKS.get(code, "engines.racks.plan.plan_racks"),))
    for code, severity, title, explanation, source in (*_RACK_RULES, *_RACK_POWER_RULES, *_RACK_SYSTEM_RULES)
)

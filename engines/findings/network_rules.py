# ruff: noqa: E501  (message ids and sources are kept whole, one line each, as translators see them)
"""Rule registry entries of the planner of the other networks (engines.networks)."""

from __future__ import annotations

from .network_codes import NetworkCode
from .rule import INFO, E, Rule, W, gettext_noop, rule

_PLAN = "engines.networks.plan"
_OOB = "engines.networks.oob"

RULES: tuple[Rule, ...] = (
    rule(
        NetworkCode.CUSTOMER_SUPPLIED,
        INFO,
        gettext_noop("Network supplied by the customer"),
        gettext_noop(
            "The design marks this network null: the customer supplies it, so its switches, cables and ports are not in the plan or the bill."
        ),
        "Design contract design/v1, additions round 3 (networks)",
        (f"{_PLAN}.plan_networks",),
    ),
    rule(
        NetworkCode.NO_ADAPTERS,
        W,
        gettext_noop("Network requested without node adapters for it"),
        gettext_noop(
            "A storage network is planned from the node adapters whose role is storage, an in-band network from those whose role is management; a network asked for with none has nothing to connect."
        ),
        "NVIDIA DGX SuperPOD H100 RA-11333-001, Network Fabrics (each pair of in-band management and storage ports)",
        (f"{_PLAN}._switched",),
    ),
    rule(
        NetworkCode.CONVERGED,
        INFO,
        gettext_noop("In-band management converged with storage"),
        gettext_noop(
            "No node adapter has the role management: in-band management shares the storage adapters and network, as the Enterprise RAs' converged north-south network does."
        ),
        "NVIDIA Enterprise RA, HGX H100/H200/B200 AI Factory: CPU Converged (North/South) network for compute, storage, in-band management and end-user connections",
        (f"{_PLAN}._switched",),
    ),
    rule(
        NetworkCode.SINGLE_PORT,
        W,
        gettext_noop("In-band network without redundancy"),
        gettext_noop(
            "The Enterprise RAs connect each node with two ports to two separate switches; a node with one management port loses the network when its switch fails."
        ),
        "NVIDIA Enterprise RA, HGX H100/H200/B200 AI Factory, Network Logical Architecture; DGX BasePOD bonded in-band interface",
        (f"{_PLAN}._switched",),
    ),
    rule(
        NetworkCode.NO_SWITCH,
        E,
        gettext_noop("No catalogue switch for a network"),
        gettext_noop(
            "The network's switch (named or default) is not in the catalogue, so the network cannot be planned or billed."
        ),
        "Catalogue data",
        (f"{_PLAN}._switched", f"{_OOB}.plan_oob"),
    ),
    rule(
        NetworkCode.OOB_NOT_MANAGEMENT,
        E,
        gettext_noop("Out-of-band switch is not a 1 GbE management switch"),
        gettext_noop(
            "Every BMC, switch management port and rack PDU takes a 1 GbE RJ45 port; the out-of-band network needs a management switch such as SN2201 (48 x 1 GbE)."
        ),
        "NVIDIA DGX SuperPOD H100 RA-11333-001, Out-of-Band Management Network; Table 1 (SN2201, 48 port 1 Gbps)",
        (f"{_OOB}.plan_oob",),
    ),
    rule(
        NetworkCode.OOB_EXTRA_SWITCHES,
        W,
        gettext_noop("More out-of-band ports than the racks' management switches have"),
        gettext_noop(
            "The rack plan puts one management switch in every rack; the out-of-band ports beyond their 48 each need more management switches, which the rack plan does not place."
        ),
        "NVIDIA DGX SuperPOD H100 RA-11333-001, Out-of-Band Management Network (management ports of all devices, rack PDUs included)",
        (f"{_OOB}.plan_oob",),
    ),
    rule(
        NetworkCode.OOB_UPLINK_PORTS,
        E,
        gettext_noop("Too few free ports for the out-of-band uplinks"),
        gettext_noop(
            "Every out-of-band switch uplinks with two ports into the in-band (or converged) network; its leaves, sized for the nodes, have fewer free ports than these uplinks need, so the design cannot be built as planned."
        ),
        "NVIDIA DGX SuperPOD H100 RA-11333-001 V11, Table 8: 'Two uplinks per OOB to in-band' (16 for its 8 SN2201)",
        (f"{_OOB}.uplink_ports",),
    ),
    rule(
        NetworkCode.OOB_PLACEMENT,
        INFO,
        gettext_noop("Where the out-of-band switches stand"),
        gettext_noop(
            "Central: the out-of-band switches stand in management racks, as the DGX SuperPOD RA racks them, counted by scalable unit (ceil of a unit's ports over 48); per-rack: one in each rack. Without networks.oob.placement the default is central unless the fullest compute rack has 24 or more management ports (BMCs and PDUs), half of a 48-port switch."
        ),
        "NVIDIA DGX SuperPOD H100 RA-11333-001 V11, Table 7 (8 SN2201 for 38 racks) and Table 8 (1 GbE out-of-band cables); DGX SuperPOD B200 RA-11334-001, management rack figure (OOB switches in the management racks)",
        (f"{_OOB}.plan_oob", f"{_OOB}.oob_placement"),
    ),
    rule(
        NetworkCode.INBAND_RATIO,
        INFO,
        gettext_noop("In-band network at the reference architecture's implied ratio"),
        gettext_noop(
            "The DGX SuperPOD H100 RA does not state its in-band ratio; its cable list (254 node links on 24 leaf-core cables) implies 11:1, which gives its 6 leaves and 2 core switches for 127 nodes. The design states no networks.inband.oversubscription, so that ratio is used."
        ),
        "NVIDIA DGX SuperPOD H100 RA-11333-001 V11, Appendix A, Tables 7 and 8 (8 SN4600C; 254 node, 24 leaf-core and 6 ISL cables)",
        (f"{_PLAN}._ratio",),
    ),
    rule(
        NetworkCode.STORAGE_SYSTEM_PORTS,
        INFO,
        gettext_noop("Storage network ports reserved for the storage systems"),
        gettext_noop(
            "The reference architecture leaves the storage systems' ports to the storage selected; without networks.storage.system_ports the plan reserves them in the proportion of the DGX SuperPOD H100 RA's cable list (48 storage cables for 254 node storage ports), and the finding says how many."
        ),
        "NVIDIA DGX SuperPOD H100 RA-11333-001 V11, Table 8: 48 'NDR Cables, 2x 200 Gbps' to the storage; storage cables 'Count and cable type required depend on specific storage selected'",
        (f"{_PLAN}._switched",),
    ),
    rule(
        NetworkCode.MEDIA_NOT_CATALOGUED,
        INFO,
        gettext_noop("Network cables not in the catalogue"),
        gettext_noop(
            "The catalogue holds no cable for these links (1 GbE RJ45 patch cords, 100 GbE QSFP28 uplinks): the plan counts them and the bill leaves them out; quote them separately."
        ),
        "Catalogue data; NVIDIA DGX SuperPOD H100 RA-11333-001 (SN2201 1 GbE ports)",
        (f"{_OOB}._oob_media",),
    ),
)

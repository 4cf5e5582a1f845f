# ruff: noqa: E501  (message ids and sources are kept whole, one line each, as translators see them)
"""Rule registry entries of the control plane and the services (engines.cluster.control_plane)."""

from __future__ import annotations

from .cluster_codes import ClusterCode, ExpansionCode
from .rule import INFO, Rule, W, gettext_noop, rule

_BASEPOD = "NVIDIA DGX BasePOD deployment guide (A100): five control plane servers, two for cluster management (BCM head nodes in HA) and three Kubernetes control plane nodes"
_SUPERPOD = "NVIDIA DGX SuperPOD reference architecture, management servers: two BCM nodes in HA, three Kubernetes admin, three Kubernetes user (Run:ai), two Slurm login nodes"
_UFM = "NVIDIA UFM Enterprise Appliance software user manual (an HA pair: '2 nodes configured'); MLNX-OS manual (embedded SM up to 2,048 endpoints); NVIDIA DGX SuperPOD H100 RA-11333-001 V11, Table 7 (4 UFM appliances for 127 nodes) and Table 8 (2 UFM back-to-back cables)"
_CLUSTER_RULES = (
    (
        ClusterCode.CONTROL_PLANE_ADDED,
        INFO,
        gettext_noop("Head and management nodes added"),
        gettext_noop(
            "A cluster runs on head nodes (Base Command Manager in high availability) and management nodes (Kubernetes, Slurm login); the offer lists them as NVIDIA's reference architectures do for the cluster's size."
        ),
        f"{_BASEPOD}; {_SUPERPOD}",
    ),
    (
        ClusterCode.CONTROL_PLANE_UFM,
        INFO,
        gettext_noop("UFM added to the offer"),
        gettext_noop(
            "From one scalable unit (32 nodes or compute trays) the offer carries a UFM Enterprise appliance pair for each InfiniBand fabric (compute and storage), as the DGX SuperPOD RA counts them; below, a pair where the InfiniBand fabric needs more than the switches' embedded subnet manager."
        ),
        _UFM,
    ),
    (
        ClusterCode.OFFER_LEFT_OUT,
        INFO,
        gettext_noop("Left out: what the site already has"),
        gettext_noop(
            "The offer leaves out what the site already has: racks, PDUs and power cords, the out-of-band management network or the control plane. Without the design's word, one server is offered without them and a cluster of fewer than four nodes without a control plane; the review step asks for them."
        ),
        "design facility.supplied; NVIDIA DGX BasePOD RA (five management servers for 2 to 8 or 2 to 16 DGX systems; smallest tabulated bill 4 nodes, RA-11127-001 V5 Table 4.2)",
    ),
    (
        ClusterCode.SERVICES_DECLINED,
        INFO,
        gettext_noop("Services declined"),
        gettext_noop("The design declines some of the services a cluster offer usually carries."),
        "design services (support_years, installation, ai_enterprise)",
    ),
    (
        ClusterCode.SERVICES_ON_REQUEST,
        INFO,
        gettext_noop("Service prices on request"),
        gettext_noop("Some service or control-plane lines have no list price yet; they are priced on request."),
        "settings QUOTE_SERVICE_* (indicative prices)",
    ),
)

RULES: tuple[Rule, ...] = tuple(
    rule(code, severity, title, explanation, source, ("engines.cluster.control_plane.cluster_lines",))
    for code, severity, title, explanation, source in _CLUSTER_RULES
)

_RA_GROWTH = "NVIDIA DGX SuperPOD H100 RA-11333-001, Network Fabrics: build the fabric for the full scalable unit and leave the portion of the fabric unused; scale to the planned size with minimal impact on the existing infrastructure"
_EXPANSION = ("engines.cluster.expansion.expansion_findings",)

RULES += (
    rule(
        ExpansionCode.NEW_TIER,
        W,
        gettext_noop("The growth needs a new fabric tier"),
        gettext_noop(
            "The installed fabric has fewer tiers than the grown cluster needs: spine or core switches are added above the installed ones and every leaf's uplinks are re-cabled to them. Building the installed fabric for the planned size would have avoided it."
        ),
        _RA_GROWTH,
        _EXPANSION,
    ),
    rule(
        ExpansionCode.UNIT_BOUNDARY,
        INFO,
        gettext_noop("The growth crosses a scalable unit boundary"),
        gettext_noop(
            "The grown cluster has more scalable units than the installed one: the new unit's leaves and their uplinks are added as a whole."
        ),
        _RA_GROWTH,
        _EXPANSION,
    ),
    rule(
        ExpansionCode.RACK_POWER,
        W,
        gettext_noop("Installed racks draw more power after the growth"),
        gettext_noop(
            "Devices added to an installed rack raise its draw above what the installed plan gave it: check the rack's PDUs, power feed and cooling before the new devices are mounted."
        ),
        "engines/racks README (rack power limit, PDUs per rack); the installed rack plan",
        _EXPANSION,
    ),
    rule(
        ExpansionCode.DEVICES_MOVED,
        W,
        gettext_noop("Installed devices move in the growth"),
        gettext_noop(
            "The grown plan places installed devices in another rack or at another unit. An expansion keeps an installed one-rack cluster's rack as it stands and the management racks keep the places of the control plane's next step free, so this is said only where the grown plan cannot keep a device: the installed rack cannot hold its nodes and leaves within the grown plan's power or units, or a new fabric tier changes the racks that hold the switches, or a node group that grows has node groups racked after it."
        ),
        "engines/racks/plan.py (rows of full scalable units, leaf, spine, management and core racks in fixed places)",
        (*_EXPANSION, "engines.cluster.expansion.moved_by_cabling"),
    ),
    rule(
        ExpansionCode.STORAGE_SYSTEMS_KEPT,
        INFO,
        gettext_noop("The installed storage systems' ports are kept"),
        gettext_noop(
            "The installed storage network reserved its storage systems' leaf ports by the reference architecture's proportion. The grown cluster keeps that many, so the storage systems' cables stay where they are, and the grown design states the count (networks.storage.system_ports). State a larger count to connect more storage."
        ),
        "NVIDIA DGX SuperPOD H100 RA-11333-001, Storage Fabric: the storage systems at 1:1 on leaves of their own; engines/networks/plan.py (the default proportion)",
        ("engines.cluster.expansion.storage_systems_kept",),
    ),
    rule(
        ExpansionCode.NETWORK_TIER,
        W,
        gettext_noop("The growth needs a new tier in the storage or in-band network"),
        gettext_noop(
            "The installed storage or in-band network has fewer tiers than the grown cluster needs: a switch pair becomes leaves under spines, so part of each installed switch's node ports become uplinks and the installed node cables are re-terminated. Building the installed network for the planned size would have avoided it."
        ),
        _RA_GROWTH,
        ("engines.cluster.expansion.network_tiers",),
    ),
)

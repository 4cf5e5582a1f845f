# ruff: noqa: E501  (message ids and sources are kept whole, one line each, as translators see them)
"""Rule registry entries of the fabric planner and its checks (engines.fabric)."""

from __future__ import annotations

from .fabric_codes import FabricCode
from .rule import INFO, E, Rule, W, gettext_noop, rule

RULES: tuple[Rule, ...] = (
    rule(
        FabricCode.PART_INVALID,
        E,
        gettext_noop("Fabric part unknown or of the wrong kind"),
        gettext_noop("The fabric switch must be a switch in the catalogue and the HCA an adapter."),
        "Design contract design/v1",
        ("engines.fabric.check.check_design_fabric",),
    ),
    rule(
        FabricCode.NO_RAILS,
        E,
        gettext_noop("Fabric without compute NICs"),
        gettext_noop("A compute fabric needs at least one compute NIC per node to connect."),
        "NVIDIA DGX SuperPOD reference architectures H100 RA-11333-001 / B200 RA-11334-001 (compute fabric)",
        ("engines.fabric.check.check_design_fabric",),
    ),
    rule(
        FabricCode.SWITCH_PORTS_UNKNOWN,
        E,
        gettext_noop("Switch port count unknown"),
        gettext_noop("The catalogue does not give the switch's cages and ports, so the fabric cannot be sized."),
        "Catalogue data",
        ("engines.fabric.plan._unplannable",),
    ),
    rule(
        FabricCode.SWITCH_IS_MANAGEMENT,
        E,
        gettext_noop("Management switch chosen as fabric switch"),
        gettext_noop("An out-of-band management switch (1 GbE RJ45, such as SN2201) cannot carry the compute fabric."),
        "NVIDIA DGX SuperPOD H100 RA: four separate fabrics (compute, storage, in-band, out-of-band)",
        ("engines.fabric.plan._unplannable",),
    ),
    rule(
        FabricCode.PROTOCOL_MISMATCH,
        E,
        gettext_noop("Adapter and switch speak different protocols"),
        gettext_noop(
            "An InfiniBand-only switch needs InfiniBand or VPI adapters; an Ethernet switch needs Ethernet or VPI."
        ),
        "NVIDIA ConnectX-7 / BlueField-3 port protocols; LinkX cables follow the switch's protocol",
        ("engines.fabric.findings.protocol_finding",),
    ),
    rule(
        FabricCode.PORTS_EXCEEDED,
        E,
        gettext_noop("More ports needed than three tiers provide"),
        gettext_noop(
            "A 3-tier non-blocking fat tree of k-port switches reaches at most k³/4 endpoints; larger fabrics need a higher-radix switch, more oversubscription or fewer endpoints."
        ),
        "Al-Fares, Loukissas, Vahdat, 'A Scalable, Commodity Data Center Network Architecture', SIGCOMM 2008; Distributor article 'NVLink en InfiniBand' (seeds/000): too few switch ports, wrong cables",
        (
            "engines.fabric.findings.rails_exceeded_finding",
            "engines.fabric.plan._infeasible",
        ),
    ),
    rule(
        FabricCode.NO_CABLE,
        E,
        gettext_noop("No catalogue cable joins the two connectors"),
        gettext_noop(
            "Switch cages take twin-port finned-top OSFP plugs, ConnectX-7 OSFP cards flat-top OSFP and BlueField-3/QSFP112 cards QSFP112 ends; some catalogue cable or optic set must join both ends at the link speed. Where the catalogue has no media at all for a connector and speed (such as 800 Gb/s XDR OSFP or 100 Gb/s QSFP28), the finding says so: add them or quote the cabling separately."
        ),
        "NVIDIA LinkX documentation (MCP4Y10, MCP7Y00, MCP7Y10, MMA4Z00-NS, MMA4Z00-NS400, MMS4X00-NS, MFP7E10/20/30); Distributor article 'NVLink en InfiniBand' (seeds/000): too few switch ports, wrong cables",
        ("engines.fabric.findings.media_finding",),
    ),
    rule(
        FabricCode.BEYOND_REACH,
        E,
        gettext_noop("Distance beyond every medium's reach"),
        gettext_noop(
            "Passive DAC reaches 2-3 m, multimode SR optics 50 m (OM4), single-mode DR 100 m or 500 m; a run longer than every matching catalogue medium cannot be built. Every run gets 0.5 m slack; the finding names the length needed and the rack override that shortens the run."
        ),
        "NVIDIA LinkX documentation (MCP4Y10, MCP7Y00, MCP7Y10, MMA4Z00-NS, MMA4Z00-NS400, MMS4X00-NS, MFP7E10/20/30); Distributor article 'NVLink en InfiniBand' (seeds/000): too few switch ports, wrong cables",
        ("engines.fabric.findings.media_finding",),
    ),
    rule(
        FabricCode.SPEED_MISMATCH,
        W,
        gettext_noop("Adapter and switch port speeds differ"),
        gettext_noop(
            "InfiniBand auto-negotiates to the common speed: NDR adapters on an HDR switch run at 200 Gb/s, and a slower adapter on a full-speed port leaves bandwidth unused."
        ),
        "NVIDIA QM97X0 user manual, Interfaces; Linux mlx-platform commit for MQM97xx ('InfiniBand speed is auto-adjusted')",
        ("engines.fabric.findings.speed_finding",),
    ),
    rule(
        FabricCode.PLANES_NO_MEDIUM,
        W,
        gettext_noop("One plane where NVIDIA plans two"),
        gettext_noop(
            "On Spectrum-X a ConnectX-8 runs as 2x 400GbE, one link to each of two planes (NVIDIA's twin-planar design). That takes a twin-port plug in the adapter's cage; without one in the catalogue the fabric is planned as one plane of one 400GbE link per adapter, half its bandwidth."
        ),
        "NVIDIA DGX SuperPOD B300 Spectrum-4 RA, Network Fabrics ('twin-planar design ... Each GPU has 2x 400GbE connectivity through two different planes'); ConnectX-8 firmware notes (Ethernet 2x 400GbE)",
        ("engines.fabric.plan.plan_fabric",),
    ),
    rule(
        FabricCode.HDR_FOR_NEW_GPUS,
        W,
        gettext_noop("HDR fabric for Hopper or Blackwell nodes"),
        gettext_noop(
            "For new H100/H200/B200 clusters NDR is the advised fabric; HDR only as a budget option or to extend an existing HDR fabric."
        ),
        "Distributor article 'NVLink en InfiniBand' (seeds/000): NDR for H100/B200, HDR as budget or extension",
        ("engines.fabric.check.check_hdr_for_new_gpus",),
    ),
    rule(
        FabricCode.FEWER_RAILS_THAN_GPUS,
        W,
        gettext_noop("Fewer rails than GPUs"),
        gettext_noop(
            "A rail-optimized fabric gives each GPU its own compute NIC and rail; with fewer NICs, GPUs share rails and inter-node bandwidth per GPU drops."
        ),
        "NVIDIA DGX SuperPOD reference architectures H100 RA-11333-001 / B200 RA-11334-001 (compute fabric)",
        ("engines.fabric.check.check_rails_per_gpu",),
    ),
    rule(
        FabricCode.SM_REQUIRED,
        W,
        gettext_noop("Unmanaged InfiniBand switches need a subnet manager"),
        gettext_noop(
            "An InfiniBand fabric needs a subnet manager; unmanaged switches (QM8790, QM9790) run none, so UFM or an SM host attached to a leaf port is required."
        ),
        "NVIDIA DGX SuperPOD reference architectures H100 RA-11333-001 / B200 RA-11334-001 (compute fabric) (UFM on dedicated servers)",
        ("engines.fabric.findings.subnet_manager_finding",),
    ),
    rule(
        FabricCode.SM_EMBEDDED,
        INFO,
        gettext_noop("Embedded subnet manager on the managed switches"),
        gettext_noop(
            "Managed switches run an embedded SM for fabrics up to 2,048 InfiniBand endpoints (HCA ports and switches), without adaptive routing or SHARP; UFM is recommended for AI training fabrics and above that size."
        ),
        "NVIDIA MLNX-OS user manual, Subnet Manager ('fabrics up to 2048 nodes'; no adaptive routing or SHARP)",
        ("engines.fabric.findings.subnet_manager_finding",),
    ),
    rule(
        FabricCode.SM_LIMIT,
        W,
        gettext_noop("Fabric larger than the embedded subnet manager handles"),
        gettext_noop(
            "The embedded SM manages fabrics up to 2,048 InfiniBand endpoints (HCA ports and switches); larger fabrics need UFM or SM hosts."
        ),
        "NVIDIA MLNX-OS user manual, Subnet Manager ('fabrics up to 2048 nodes'; no adaptive routing or SHARP)",
        ("engines.fabric.findings.subnet_manager_finding",),
    ),
    rule(
        FabricCode.SM_UNKNOWN,
        W,
        gettext_noop("Subnet-manager status of the switch unknown"),
        gettext_noop(
            "The sources do not say whether the switch is managed (runs an embedded subnet manager); an InfiniBand fabric needs one, so plan UFM or an SM host until the status is confirmed."
        ),
        "NVIDIA DGX SuperPOD reference architectures H100 RA-11333-001 / B200 RA-11334-001 (compute fabric) (UFM on dedicated servers)",
        ("engines.fabric.findings.subnet_manager_finding",),
    ),
    rule(
        FabricCode.HCA_ASSUMED,
        INFO,
        gettext_noop("No HCA given: a matching one assumed"),
        gettext_noop(
            "Without an HCA the planner assumes a single-port HCA at the switch's port speed (flat-top OSFP for OSFP switches) to choose node cables."
        ),
        "NVIDIA LinkX documentation (MCP4Y10, MCP7Y00, MCP7Y10, MMA4Z00-NS, MMA4Z00-NS400, MMS4X00-NS, MFP7E10/20/30)",
        ("engines.fabric.plan._unplannable",),
    ),
    rule(
        FabricCode.NO_MGMT_SWITCH,
        INFO,
        gettext_noop("No management switch in the catalogue"),
        gettext_noop(
            "Every node BMC and every fabric switch needs a 1 GbE out-of-band port; no management switch was found to count them on."
        ),
        "NVIDIA DGX SuperPOD H100 RA: out-of-band management network (SN2201)",
        ("engines.fabric.plan._management",),
    ),
    rule(
        FabricCode.SINGLE_NODE,
        INFO,
        gettext_noop("A single node needs no fabric"),
        gettext_noop("Within one server the GPUs talk over NVLink; a compute fabric only pays off from two nodes."),
        "Distributor article 'NVLink en InfiniBand' (seeds/000): single-node setups do not need InfiniBand",
        ("engines.fabric.check.check_single_node",),
    ),
    rule(
        FabricCode.ROCE_ALTERNATIVE,
        INFO,
        gettext_noop("RoCE on Spectrum-4 as the Ethernet alternative"),
        gettext_noop(
            "RoCE on 400GbE (Spectrum-4 SN5600) is a serious alternative where Ethernet is preferred; InfiniBand keeps an edge in latency and consistency under high load."
        ),
        "Distributor article 'NVLink en InfiniBand' (seeds/000): RoCE on 400GbE as the alternative",
        ("engines.fabric.check.check_roce_alternative",),
    ),
    rule(
        FabricCode.PLUG_TOP_UNKNOWN,
        W,
        gettext_noop("Plug top not known"),
        gettext_noop(
            "Switch cages take finned-top plugs and adapter cages with riding heat sinks flat-top plugs; a medium whose plug top, or whose cage's top, the sources do not give is an assumed fit, to confirm before ordering."
        ),
        "NVIDIA LinkX OSFP and XDR pages (finned top for switch cages, flat top for ConnectX-7/8 and BlueField-3 cages)",
        ("engines.fabric.findings.choice_findings",),
    ),
    rule(
        FabricCode.MEDIA_DISCONTINUED,
        W,
        gettext_noop("Discontinued cable or optic chosen"),
        gettext_noop(
            "The planner chooses a discontinued or end-of-life cable or optic only when no active one reaches; the finding names the replacement the source gives."
        ),
        "NVIDIA LinkX 'Copper DAC and LACC Cables Overview': 1:2 and 1:4 splitters discontinued, use transceivers",
        ("engines.fabric.findings.choice_findings",),
    ),
    rule(
        FabricCode.GROWTH_RESERVE,
        INFO,
        gettext_noop("Fabric switches held in reserve for growth"),
        gettext_noop(
            "The fabric is sized to the nodes quoted, but a balanced fat tree (every leaf the same number of links to every spine) or whole three-tier pods can need more switches than the links fill; those switches are a reserve for growth, and their cost is stated."
        ),
        "NVIDIA DGX SuperPOD H100 RA-11333-001, Network Fabrics (balanced, full fat tree; full SU recommended); fabric.md section 0 rules 2 and 4",
        ("engines.fabric.findings.growth_reserve_finding",),
    ),
    rule(
        FabricCode.DISTANCE_ASSUMED,
        W,
        gettext_noop("Default run longer than the longest catalogue medium"),
        gettext_noop(
            "The design gives no distance for this link class and the default layout's run is longer than any catalogue medium that joins the ends; the plan assumes runs within the longest one. Confirm the distance on site."
        ),
        "engines/fabric/README.md, Rack model (documented default distances)",
        ("engines.fabric.plan._assumed",),
    ),
    rule(
        FabricCode.DISTANCE_IMPLAUSIBLE,
        W,
        gettext_noop("Implausible distance"),
        gettext_noop(
            "A run inside one rack is a few metres at most (a 42U rack is about 2 m tall), and runs between the rows of one site are not kilometres long; such a distance is most likely a unit mix-up."
        ),
        "EIA-310 rack units (42U = 1.87 m); engines/fabric/README.md, Rack model",
        ("engines.fabric.findings.distance_findings",),
    ),
    rule(
        FabricCode.DISTANCE_UNUSED,
        INFO,
        gettext_noop("Distance given for a link the fabric does not have"),
        gettext_noop(
            "The design gives a distance for a link class this fabric does not have (a leaf-to-spine run for a one-switch fabric, a spine-to-core run without core switches); it is not used."
        ),
        "engines/fabric/README.md, Rack model",
        ("engines.fabric.findings.distance_findings",),
    ),
    rule(
        FabricCode.MEDIA_NOT_CATALOGUED,
        W,
        gettext_noop("The catalogue has no medium for these links yet"),
        gettext_noop(
            "The link is valid hardware, but the catalogue holds no cable or optic for this connector and speed (or the connector is not known from the sources). The bill of materials leaves these links out and is marked incomplete; the cabling is quoted separately."
        ),
        "catalogue coverage (LinkX media per connector and speed); NVIDIA XDR LinkX page (NV-XDR-LX)",
        ("engines.fabric.findings.media_finding",),
    ),
    rule(
        FabricCode.REACH_NOT_CATALOGUED,
        W,
        gettext_noop("No catalogued medium reaches this run yet"),
        gettext_noop(
            "The run is longer than every catalogued cable that joins these ports and no catalogued optics reach it, or catalogued optics reach it but every catalogued fibre is shorter, so a longer medium (AOC, optics or fibre) is missing from the catalogue rather than impossible. The bill of materials leaves these links out and is marked incomplete; the longer medium is quoted separately."
        ),
        "catalogue coverage (LinkX media per connector and speed); NVIDIA cable management guide: AOCs 'from 3 meters to about 100 meters'; NVIDIA structured cabling requirements (NDR/XDR): 'MPO Single-Mode straight cables: Total length up to 500m (inc. patch panels, trunk and cables)'",
        ("engines.fabric.findings.media_finding",),
    ),
)

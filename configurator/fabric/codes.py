"""Stable finding codes of the fabric planner and checks, with their rule-catalogue entries.

``FABRIC_RULES`` feeds the rule catalogue page: per code the severity, a title and an explanation in
English and Dutch, and the source the rule rests on. Codes are stable; never rename one.
"""

from __future__ import annotations

from enum import StrEnum

from configurator.rules.findings import Severity


class FabricCode(StrEnum):
    PART_INVALID = "FABRIC_PART_INVALID"
    NO_RAILS = "FABRIC_NO_RAILS"
    SWITCH_PORTS_UNKNOWN = "FABRIC_SWITCH_PORTS_UNKNOWN"
    SWITCH_IS_MANAGEMENT = "FABRIC_SWITCH_IS_MANAGEMENT"
    PROTOCOL_MISMATCH = "FABRIC_PROTOCOL_MISMATCH"
    PORTS_EXCEEDED = "FABRIC_PORTS_EXCEEDED"
    NO_CABLE = "FABRIC_NO_CABLE"
    BEYOND_REACH = "FABRIC_BEYOND_REACH"
    SPEED_MISMATCH = "FABRIC_SPEED_MISMATCH"
    HDR_FOR_NEW_GPUS = "FABRIC_HDR_FOR_NEW_GPUS"
    FEWER_RAILS_THAN_GPUS = "FABRIC_FEWER_RAILS_THAN_GPUS"
    SM_REQUIRED = "FABRIC_SM_REQUIRED"
    SM_EMBEDDED = "FABRIC_SM_EMBEDDED"
    SM_LIMIT = "FABRIC_SM_LIMIT"
    SM_UNKNOWN = "FABRIC_SM_UNKNOWN"
    HCA_ASSUMED = "FABRIC_HCA_ASSUMED"
    NO_MGMT_SWITCH = "FABRIC_NO_MGMT_SWITCH"
    SINGLE_NODE = "FABRIC_SINGLE_NODE"
    ROCE_ALTERNATIVE = "FABRIC_ROCE_ALTERNATIVE"


SRC_SUPERPOD = "NVIDIA DGX SuperPOD reference architectures H100 RA-11333-001 / B200 RA-11334-001 (compute fabric)"
SRC_FATTREE = "Al-Fares, Loukissas, Vahdat, 'A Scalable, Commodity Data Center Network Architecture', SIGCOMM 2008"
SRC_LINKX = (
    "NVIDIA LinkX documentation (MCP4Y10, MCP7Y00, MCP7Y10, MMA4Z00-NS, MMA4Z00-NS400, MMS4X00-NS, MFP7E10/20/30)"
)
SRC_QM97 = "NVIDIA QM97X0 user manual, Interfaces; Linux mlx-platform commit for MQM97xx"
SRC_MLNXOS_SM = "NVIDIA MLNX-OS user manual, Subnet Manager ('fabrics up to 2048 nodes'; no adaptive routing or SHARP)"
SRC_SEED_NDR = "Distributor article 'NVLink en InfiniBand' (seeds/000): NDR for H100/B200, HDR as budget or extension"
SRC_SEED_ROCE = "Distributor article 'NVLink en InfiniBand' (seeds/000): RoCE on 400GbE as the alternative"
SRC_SEED_MISTAKES = "Distributor article 'NVLink en InfiniBand' (seeds/000): too few switch ports, wrong cables"


def _rule(severity: Severity, en_title: str, nl_title: str, en: str, nl: str, source: str) -> dict:
    return {
        "severity": severity,
        "title": {"en": en_title, "nl": nl_title},
        "explanation": {"en": en, "nl": nl},
        "source": source,
    }


FABRIC_RULES: dict[FabricCode, dict] = {
    FabricCode.PART_INVALID: _rule(
        Severity.ERROR,
        "Fabric part unknown or of the wrong kind",
        "Netwerkonderdeel onbekend of van de verkeerde soort",
        "The fabric switch must be a switch in the catalogue and the HCA an adapter.",
        "De fabric-switch moet een switch uit de catalogus zijn en de HCA een adapter.",
        "Design contract design/v1",
    ),
    FabricCode.NO_RAILS: _rule(
        Severity.ERROR,
        "Fabric without compute NICs",
        "Fabric zonder compute-NIC's",
        "A compute fabric needs at least one compute NIC per node to connect.",
        "Een compute-fabric heeft per node minstens één compute-NIC nodig om aan te sluiten.",
        SRC_SUPERPOD,
    ),
    FabricCode.SWITCH_PORTS_UNKNOWN: _rule(
        Severity.ERROR,
        "Switch port count unknown",
        "Aantal switchpoorten onbekend",
        "The catalogue does not give the switch's cages and ports, so the fabric cannot be sized.",
        "De catalogus geeft de kooien en poorten van de switch niet, dus de fabric kan niet worden berekend.",
        "Catalogue data",
    ),
    FabricCode.SWITCH_IS_MANAGEMENT: _rule(
        Severity.ERROR,
        "Management switch chosen as fabric switch",
        "Managementswitch gekozen als fabric-switch",
        "An out-of-band management switch (1 GbE RJ45, such as SN2201) cannot carry the compute fabric.",
        "Een out-of-band managementswitch (1 GbE RJ45, zoals de SN2201) kan de compute-fabric niet dragen.",
        "NVIDIA DGX SuperPOD H100 RA: four separate fabrics (compute, storage, in-band, out-of-band)",
    ),
    FabricCode.PROTOCOL_MISMATCH: _rule(
        Severity.ERROR,
        "Adapter and switch speak different protocols",
        "Adapter en switch spreken verschillende protocollen",
        "An InfiniBand-only switch needs InfiniBand or VPI adapters; an Ethernet switch needs Ethernet or VPI.",
        "Een switch die alleen InfiniBand spreekt heeft InfiniBand- of VPI-adapters nodig; een Ethernet-switch "
        "Ethernet- of VPI-adapters.",
        "NVIDIA ConnectX-7 / BlueField-3 port protocols; LinkX cables follow the switch's protocol",
    ),
    FabricCode.PORTS_EXCEEDED: _rule(
        Severity.ERROR,
        "More ports needed than three tiers provide",
        "Meer poorten nodig dan drie lagen bieden",
        "A 3-tier non-blocking fat tree of k-port switches reaches at most k³/4 endpoints; larger fabrics need "
        "a higher-radix switch, more oversubscription or fewer endpoints.",
        "Een niet-blokkerende fat tree van drie lagen met switches van k poorten bereikt hooguit k³/4 "
        "eindpunten; grotere fabrics vragen een switch met meer poorten, meer oversubscription of minder eindpunten.",
        SRC_FATTREE + "; " + SRC_SEED_MISTAKES,
    ),
    FabricCode.NO_CABLE: _rule(
        Severity.ERROR,
        "No catalogue cable joins the two connectors",
        "Geen kabel in de catalogus verbindt beide connectoren",
        "Switch cages take twin-port finned-top OSFP plugs, ConnectX-7 OSFP cards flat-top OSFP and "
        "BlueField-3/QSFP112 cards QSFP112 ends; some catalogue cable or optic set must join both ends at the "
        "link speed. Where the catalogue has no media at all for a connector and speed (such as 800 Gb/s XDR "
        "OSFP or 100 Gb/s QSFP28), the finding says so: add them or quote the cabling separately.",
        "Switchkooien nemen twin-port OSFP-stekkers met koelribben, ConnectX-7 OSFP-kaarten vlakke OSFP en "
        "BlueField-3/QSFP112-kaarten QSFP112; een kabel of optiekset uit de catalogus moet beide kanten op de "
        "linksnelheid verbinden. Heeft de catalogus voor een connector en snelheid nog helemaal geen media (zoals "
        "800 Gb/s XDR-OSFP of 100 Gb/s QSFP28), dan zegt de melding dat: voeg ze toe of offreer de bekabeling apart.",
        SRC_LINKX + "; " + SRC_SEED_MISTAKES,
    ),
    FabricCode.BEYOND_REACH: _rule(
        Severity.ERROR,
        "Distance beyond every medium's reach",
        "Afstand groter dan het bereik van elk medium",
        "Passive DAC reaches 2-3 m, multimode SR optics 50 m (OM4), single-mode DR 100 m or 500 m; a run "
        "longer than every matching catalogue medium cannot be built. Every run gets 0.5 m slack; the finding "
        "names the length needed and the rack override that shortens the run.",
        "Passieve DAC reikt 2-3 m, multimode SR-optiek 50 m (OM4), single-mode DR 100 m of 500 m; een "
        "verbinding langer dan elk passend medium uit de catalogus kan niet worden gebouwd. Elke verbinding krijgt "
        "0,5 m speling; de melding noemt de benodigde lengte en de rack-instelling die de verbinding korter maakt.",
        SRC_LINKX + "; " + SRC_SEED_MISTAKES,
    ),
    FabricCode.SPEED_MISMATCH: _rule(
        Severity.WARNING,
        "Adapter and switch port speeds differ",
        "Snelheid van adapter en switchpoort verschilt",
        "InfiniBand auto-negotiates to the common speed: NDR adapters on an HDR switch run at 200 Gb/s, and a "
        "slower adapter on a full-speed port leaves bandwidth unused.",
        "InfiniBand onderhandelt naar de gemeenschappelijke snelheid: NDR-adapters op een HDR-switch lopen op "
        "200 Gb/s, en een tragere adapter op een volle poort laat bandbreedte onbenut.",
        SRC_QM97 + " ('InfiniBand speed is auto-adjusted')",
    ),
    FabricCode.HDR_FOR_NEW_GPUS: _rule(
        Severity.WARNING,
        "HDR fabric for Hopper or Blackwell nodes",
        "HDR-fabric voor Hopper- of Blackwell-nodes",
        "For new H100/H200/B200 clusters NDR is the advised fabric; HDR only as a budget option or to extend an "
        "existing HDR fabric.",
        "Voor nieuwe H100/H200/B200-clusters is NDR de aanbevolen fabric; HDR alleen als budgetoptie of bij "
        "uitbreiding van een bestaande HDR-fabric.",
        SRC_SEED_NDR,
    ),
    FabricCode.FEWER_RAILS_THAN_GPUS: _rule(
        Severity.WARNING,
        "Fewer rails than GPUs",
        "Minder rails dan GPU's",
        "A rail-optimized fabric gives each GPU its own compute NIC and rail; with fewer NICs, GPUs share "
        "rails and inter-node bandwidth per GPU drops.",
        "Een rail-geoptimaliseerde fabric geeft elke GPU een eigen compute-NIC en rail; met minder NIC's delen "
        "GPU's een rail en daalt de bandbreedte per GPU tussen nodes.",
        SRC_SUPERPOD,
    ),
    FabricCode.SM_REQUIRED: _rule(
        Severity.WARNING,
        "Unmanaged InfiniBand switches need a subnet manager",
        "Unmanaged InfiniBand-switches hebben een subnet manager nodig",
        "An InfiniBand fabric needs a subnet manager; unmanaged switches (QM8790, QM9790) run none, so UFM or "
        "an SM host attached to a leaf port is required.",
        "Een InfiniBand-fabric heeft een subnet manager nodig; unmanaged switches (QM8790, QM9790) draaien er "
        "geen, dus UFM of een SM-host aan een leafpoort is nodig.",
        SRC_SUPERPOD + " (UFM on dedicated servers)",
    ),
    FabricCode.SM_EMBEDDED: _rule(
        Severity.INFO,
        "Embedded subnet manager on the managed switches",
        "Ingebouwde subnet manager op de managed switches",
        "Managed switches run an embedded SM for fabrics up to 2,048 InfiniBand endpoints (HCA ports and "
        "switches), without adaptive routing or SHARP; UFM is recommended for AI training fabrics and above that "
        "size.",
        "Managed switches draaien een ingebouwde SM voor fabrics tot 2.048 InfiniBand-eindpunten (HCA-poorten en "
        "switches), zonder adaptive routing of SHARP; UFM wordt aangeraden voor AI-trainingsfabrics en boven die "
        "omvang.",
        SRC_MLNXOS_SM,
    ),
    FabricCode.SM_LIMIT: _rule(
        Severity.WARNING,
        "Fabric larger than the embedded subnet manager handles",
        "Fabric groter dan de ingebouwde subnet manager aankan",
        "The embedded SM manages fabrics up to 2,048 InfiniBand endpoints (HCA ports and switches); larger "
        "fabrics need UFM or SM hosts.",
        "De ingebouwde SM beheert fabrics tot 2.048 InfiniBand-eindpunten (HCA-poorten en switches); grotere "
        "fabrics hebben UFM of SM-hosts nodig.",
        SRC_MLNXOS_SM,
    ),
    FabricCode.SM_UNKNOWN: _rule(
        Severity.WARNING,
        "Subnet-manager status of the switch unknown",
        "Subnet-managerstatus van de switch onbekend",
        "The sources do not say whether the switch is managed (runs an embedded subnet manager); an InfiniBand "
        "fabric needs one, so plan UFM or an SM host until the status is confirmed.",
        "De bronnen zeggen niet of de switch managed is (een ingebouwde subnet manager draait); een "
        "InfiniBand-fabric heeft er een nodig, dus plan UFM of een SM-host tot de status bevestigd is.",
        SRC_SUPERPOD + " (UFM on dedicated servers)",
    ),
    FabricCode.HCA_ASSUMED: _rule(
        Severity.INFO,
        "No HCA given: a matching one assumed",
        "Geen HCA opgegeven: een passende aangenomen",
        "Without an HCA the planner assumes a single-port HCA at the switch's port speed (flat-top OSFP for "
        "OSFP switches) to choose node cables.",
        "Zonder HCA neemt de planner een enkelpoorts HCA op de poortsnelheid van de switch aan (vlakke OSFP bij "
        "OSFP-switches) om de nodekabels te kiezen.",
        SRC_LINKX,
    ),
    FabricCode.NO_MGMT_SWITCH: _rule(
        Severity.INFO,
        "No management switch in the catalogue",
        "Geen managementswitch in de catalogus",
        "Every node BMC and every fabric switch needs a 1 GbE out-of-band port; no management switch was found "
        "to count them on.",
        "Elke node-BMC en elke fabric-switch heeft een 1 GbE out-of-band-poort nodig; er is geen "
        "managementswitch gevonden om ze op te tellen.",
        "NVIDIA DGX SuperPOD H100 RA: out-of-band management network (SN2201)",
    ),
    FabricCode.SINGLE_NODE: _rule(
        Severity.INFO,
        "A single node needs no fabric",
        "Eén node heeft geen fabric nodig",
        "Within one server the GPUs talk over NVLink; a compute fabric only pays off from two nodes.",
        "Binnen één server praten de GPU's via NVLink; een compute-fabric loont pas vanaf twee nodes.",
        "Distributor article 'NVLink en InfiniBand' (seeds/000): single-node setups do not need InfiniBand",
    ),
    FabricCode.ROCE_ALTERNATIVE: _rule(
        Severity.INFO,
        "RoCE on Spectrum-4 as the Ethernet alternative",
        "RoCE op Spectrum-4 als Ethernet-alternatief",
        "RoCE on 400GbE (Spectrum-4 SN5600) is a serious alternative where Ethernet is preferred; InfiniBand "
        "keeps an edge in latency and consistency under high load.",
        "RoCE op 400GbE (Spectrum-4 SN5600) is een serieus alternatief als Ethernet de voorkeur heeft; "
        "InfiniBand behoudt een voordeel in latentie en consistentie onder hoge belasting.",
        SRC_SEED_ROCE,
    ),
}

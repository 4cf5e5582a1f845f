"""Test specs mirroring shared/reference/fabric.md (sections 3 and 4) and hardware.md (adapters).

Connectors, tops, twin plugs, legs and reach follow the reference. Prices are plausible relative list
prices for test data only: they only have to make copper cheaper than optics and multimode cheaper than
single-mode, as in any real price list. Twin-port ends carry the speed of one logical port (400G).
"""

from __future__ import annotations

from decimal import Decimal

from configurator.rules.specs import (
    AdapterSpec,
    CatalogView,
    Connector,
    MediaEnd,
    MediaKind,
    MediaSpec,
    Protocol,
    ServerSpec,
    SwitchSpec,
    Top,
)

OSFP, QSFP112, QSFP56, MPO = Connector.OSFP, Connector.QSFP112, Connector.QSFP56, Connector.MPO12

# --- switches (fabric.md section 3) ---------------------------------------------------------------------
QM9700 = SwitchSpec(
    part_number="MQM9700-NS2F",
    name="Quantum-2 QM9700, 32 OSFP, 64x NDR, managed",
    price_eur=Decimal(28000),
    protocol=Protocol.INFINIBAND,
    generation="NDR",
    cages=32,
    cage_connector=OSFP,
    logical_ports_per_cage=2,
    port_speed_gbps=400,
    max_split=2,
    height_u=1,
    managed=True,
    embedded_sm_max_nodes=2048,  # MLNX-OS user manual, Subnet Manager
    top=Top.FINNED,
)
QM9790 = SwitchSpec(
    part_number="MQM9790-NS2F",
    name="Quantum-2 QM9790, 32 OSFP, 64x NDR, unmanaged",
    price_eur=Decimal(25000),
    protocol=Protocol.INFINIBAND,
    generation="NDR",
    cages=32,
    cage_connector=OSFP,
    logical_ports_per_cage=2,
    port_speed_gbps=400,
    max_split=2,
    height_u=1,
    managed=False,
    top=Top.FINNED,
)
QM8700 = SwitchSpec(
    part_number="MQM8700-HS2F",
    name="Quantum QM8700, 40x QSFP56 HDR, managed",
    price_eur=Decimal(16000),
    protocol=Protocol.INFINIBAND,
    generation="HDR",
    cages=40,
    cage_connector=QSFP56,
    logical_ports_per_cage=1,
    port_speed_gbps=200,
    max_split=1,
    height_u=1,
    managed=True,
    embedded_sm_max_nodes=2048,  # MLNX-OS user manual, Subnet Manager
)
SN5600 = SwitchSpec(
    part_number="MSN5600-MS2FC",
    name="Spectrum-4 SN5600, 64x OSFP 800GbE",
    price_eur=Decimal(45000),
    protocol=Protocol.ETHERNET,
    generation="Spectrum-4",
    cages=64,
    cage_connector=OSFP,
    logical_ports_per_cage=2,
    port_speed_gbps=400,
    max_split=2,
    height_u=2,
    managed=True,
    top=Top.FINNED,
)
# Quantum-X800 Q3400-RA: 72 OSFP, 144 x 800G (fabric.md section 3, [S]); plug top not sourced.
Q3400 = SwitchSpec(
    part_number="Q3400-RA",
    name="Quantum-X800 Q3400-RA, 72 OSFP, 144x XDR",
    price_eur=None,
    protocol=Protocol.INFINIBAND,
    generation="XDR",
    cages=72,
    cage_connector=OSFP,
    logical_ports_per_cage=2,
    port_speed_gbps=800,
    height_u=4,
    managed=None,
)
# Spectrum-3 SN4600C: 64 x QSFP28 100GbE (fabric.md section 3, [V] H100 RA Table 1).
SN4600C = SwitchSpec(
    part_number="SN4600C",
    name="Spectrum-3 SN4600C, 64x QSFP28 100GbE",
    price_eur=None,
    protocol=Protocol.ETHERNET,
    generation="Spectrum-3",
    cages=64,
    cage_connector=Connector.QSFP28,
    logical_ports_per_cage=1,
    port_speed_gbps=100,
    height_u=2,
)
SN2201 = SwitchSpec(
    part_number="MSN2201-CB2FC",
    name="Spectrum SN2201, 48x 1GbE RJ45 + 4x QSFP28",
    price_eur=Decimal(6000),
    protocol=Protocol.ETHERNET,
    generation="Spectrum",
    cages=4,
    cage_connector=Connector.QSFP28,
    logical_ports_per_cage=1,
    port_speed_gbps=100,
    height_u=1,
    managed=True,
    management=True,
    rj45_ports=48,
)

# --- adapters (hardware.md) ------------------------------------------------------------------------------
CX7_NDR = AdapterSpec(
    part_number="MCX75310AAS-NEAT",
    name="ConnectX-7 1x OSFP NDR",
    price_eur=Decimal(1900),
    family="ConnectX-7",
    ports=1,
    speed_gbps=400,
    connector=OSFP,
    protocol=Protocol.VPI,
    top=Top.FLAT,
)
CX7_NDR200 = AdapterSpec(
    part_number="MCX75310AAS-HEAT",
    name="ConnectX-7 1x OSFP NDR200",
    price_eur=Decimal(1400),
    family="ConnectX-7",
    ports=1,
    speed_gbps=200,
    connector=OSFP,
    protocol=Protocol.VPI,
    top=Top.FLAT,
)
CX7_QSFP112 = AdapterSpec(
    part_number="MCX715105AS-WEAT",
    name="ConnectX-7 1x QSFP112 400G",
    price_eur=Decimal(1800),
    family="ConnectX-7",
    ports=1,
    speed_gbps=400,
    connector=QSFP112,
    protocol=Protocol.VPI,
)
BF3 = AdapterSpec(
    part_number="900-9D3D4-00EN-HA0",
    name="BlueField-3 B3140H 1x QSFP112 400G",
    price_eur=Decimal(2500),
    family="BlueField-3",
    ports=1,
    speed_gbps=400,
    connector=QSFP112,
    protocol=Protocol.VPI,
    is_dpu=True,
)
CX6_HDR = AdapterSpec(
    part_number="MCX653105A-HDAT",
    name="ConnectX-6 1x QSFP56 HDR",
    price_eur=Decimal(1100),
    family="ConnectX-6",
    ports=1,
    speed_gbps=200,
    connector=QSFP56,
    protocol=Protocol.VPI,
)
# ConnectX-8 C8180: 800 Gb/s XDR, single-cage OSFP, VPI (hardware.md adapters); top not sourced.
CX8 = AdapterSpec(
    part_number="900-9X81E-00EX-ST0",
    name="ConnectX-8 C8180 1x OSFP XDR",
    price_eur=None,
    family="ConnectX-8",
    ports=1,
    speed_gbps=800,
    connector=OSFP,
    protocol=Protocol.VPI,
)
# A 100GbE QSFP28 NIC (test part) for the SN4600C.
ETH_100G = AdapterSpec(
    part_number="ETH-100G-QSFP28",
    name="Ethernet 100GbE QSFP28 NIC (test part)",
    price_eur=Decimal(400),
    ports=1,
    speed_gbps=100,
    connector=Connector.QSFP28,
    protocol=Protocol.ETHERNET,
)
ETH_ONLY = AdapterSpec(
    part_number="ETH-400G-OSFP",
    name="Ethernet-only 400GbE OSFP NIC (test part)",
    price_eur=Decimal(900),
    ports=1,
    speed_gbps=400,
    connector=OSFP,
    protocol=Protocol.ETHERNET,
    top=Top.FLAT,
)

SERVER = ServerSpec(part_number="SYS-821GE-TNHR", name="Supermicro 8U HGX H100/H200", height_u=8)

# --- media (fabric.md section 4) ------------------------------------------------------------------------
TWIN = MediaEnd(connector=OSFP, speed_gbps=400, top=Top.FINNED, twin=True)
OSFP_FLAT = MediaEnd(connector=OSFP, speed_gbps=400, top=Top.FLAT)
QSFP112_END = MediaEnd(connector=QSFP112, speed_gbps=400)
QSFP56_END = MediaEnd(connector=QSFP56, speed_gbps=200)


def _code(m: float) -> str:
    """NVIDIA length codes: N001 = 1 m, N01A = 1.5 m, N00A = 0.5 m."""
    whole = int(m)
    return f"{whole:02d}A" if m != whole and whole else ("00A" if m == 0.5 else f"{whole:03d}")


def _cables(prefix: str, kind: MediaKind, a: MediaEnd, b: MediaEnd, lengths, base: int, per_m: int, **kw):
    return [
        MediaSpec(
            part_number=f"{prefix}{_code(m)}",
            name=f"{prefix} {m:g} m",
            price_eur=Decimal(base + per_m * m),
            kind=kind,
            end_a=a,
            end_b=b,
            length_m=m,
            **kw,
        )
        for m in lengths
    ]


def _transceiver(pn: str, el: MediaEnd, optical_legs: int, reach: float, fibre: str, price: int) -> MediaSpec:
    return MediaSpec(
        part_number=pn,
        name=pn,
        price_eur=Decimal(price),
        kind=MediaKind.TRANSCEIVER,
        end_a=el,
        end_b=MediaEnd(connector=MPO, speed_gbps=400, legs=optical_legs),
        reach_m=reach,
        fibre=fibre,
    )


DAC_SWITCH = _cables("MCP4Y10-N", MediaKind.DAC, TWIN, TWIN, (0.5, 1, 1.5, 2), 220, 40)
DAC_SPLIT_OSFP = _cables(
    "MCP7Y00-N",
    MediaKind.DAC,
    TWIN,
    MediaEnd(connector=OSFP, speed_gbps=400, top=Top.FLAT, legs=2),
    (1, 1.5, 2, 2.5, 3),
    300,
    50,
)
DAC_SPLIT_QSFP112 = _cables(
    "MCP7Y10-N", MediaKind.DAC, TWIN, MediaEnd(connector=QSFP112, speed_gbps=400, legs=2), (1, 1.5, 2, 2.5, 3), 320, 50
)
DAC_SPLIT_NDR200 = _cables(
    "MCP7Y50-N",
    MediaKind.DAC,
    TWIN,
    MediaEnd(connector=OSFP, speed_gbps=200, top=Top.FLAT, legs=4),
    (1, 1.5, 2, 2.5, 3),
    380,
    50,
)
SR8_TWIN = _transceiver("MMA4Z00-NS", TWIN, 2, 50, "mm", 1500)
SR4_OSFP = _transceiver("MMA4Z00-NS400", OSFP_FLAT, 1, 50, "mm", 850)
SR4_QSFP112 = _transceiver("MMA1Z00-NS400", QSFP112_END, 1, 50, "mm", 850)
DR8_TWIN = _transceiver("MMS4X00-NS", TWIN, 2, 100, "sm", 2200)
DR4_OSFP = _transceiver("MMS4X00-NS400", OSFP_FLAT, 1, 100, "sm", 1200)
DR4_TWIN_500 = _transceiver("MMS4X00-NM", TWIN, 2, 500, "sm", 2600)
MPO_400 = MediaEnd(connector=MPO, speed_gbps=400)
FIBRE_MM = _cables("MFP7E10-N", MediaKind.FIBRE, MPO_400, MPO_400, (3, 5, 7, 10, 15, 20, 30, 50), 40, 2, fibre="mm")
FIBRE_MM_SPLIT = _cables(
    "MFP7E20-N",
    MediaKind.FIBRE,
    MPO_400,
    MediaEnd(connector=MPO, speed_gbps=200, legs=2),
    (3, 5, 7, 10, 15, 20, 30, 50),
    70,
    3,
    fibre="mm",
)
FIBRE_SM = _cables(
    "MFP7E30-N",
    MediaKind.FIBRE,
    MPO_400,
    MPO_400,
    (3, 5, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500),
    50,
    2,
    fibre="sm",
)
# MCP7Y60-Hxxx: twin-port 2x200G OSFP (finned) -> 2 x 200G QSFP56 DAC splitter; 30AWG 1-1.5 m, 26AWG 2 m
# (fabric.md section 4, "HDR / mixed-generation"). Twin end at 200G per logical port, as in the seeded catalogue.
DAC_SPLIT_HDR = _cables(
    "MCP7Y60-H",
    MediaKind.DAC,
    MediaEnd(connector=OSFP, speed_gbps=200, top=Top.FINNED, twin=True),
    MediaEnd(connector=QSFP56, speed_gbps=200, legs=2),
    (1, 1.5, 2),
    260,
    50,
)
HDR_DAC = _cables("MCP1650-H", MediaKind.DAC, QSFP56_END, QSFP56_END, (1, 2, 3), 120, 30)
HDR_AOC = _cables("MFS1S00-H", MediaKind.AOC, QSFP56_END, QSFP56_END, (3, 5, 10, 15, 20, 30, 50, 100), 500, 8)

SWITCHES = [QM9700, QM9790, QM8700, SN5600, SN2201]
ADAPTERS = [CX7_NDR, CX7_NDR200, CX7_QSFP112, BF3, CX6_HDR, ETH_ONLY]
MEDIA = [
    *DAC_SWITCH,
    *DAC_SPLIT_OSFP,
    *DAC_SPLIT_QSFP112,
    *DAC_SPLIT_NDR200,
    *DAC_SPLIT_HDR,
    SR8_TWIN,
    SR4_OSFP,
    SR4_QSFP112,
    DR8_TWIN,
    DR4_OSFP,
    DR4_TWIN_500,
    *FIBRE_MM,
    *FIBRE_MM_SPLIT,
    *FIBRE_SM,
    *HDR_DAC,
    *HDR_AOC,
]


def catalog(*parts, without: tuple[str, ...] = ()) -> CatalogView:
    """The full test catalogue (or only ``parts``), minus part numbers starting with any of ``without``."""
    chosen = parts or (*SWITCHES, *ADAPTERS, *MEDIA, SERVER)
    return CatalogView(
        version="test",
        parts={p.part_number: p for p in chosen if not p.part_number.startswith(without or ("\0",))},
    )


CATALOG = catalog()

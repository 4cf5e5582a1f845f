"""Fabric test specs from the seed catalogue (catalog/seed/catalog.json, via tests.engines.node.parts.seeded).

Switches, adapters, the server and every cable and transceiver the seed holds are the seed's own specs. The
test catalogue adds cable lengths the seed does not stock (priced base + per metre, copper cheaper than optics
and multimode cheaper than single-mode, as in any real price list) and two hypothetical Ethernet-only NICs; those
follow shared/reference/fabric.md (sections 3 and 4): connectors, tops, twin plugs, legs and reach. Twin-port ends
carry the speed of one logical port (400G).
"""

from __future__ import annotations

from decimal import Decimal

from design.specs import MediaEnd, MediaSpec
from design.vocabulary import Connector, MediaKind, Protocol, Top
from engines.catalog_view import CatalogView
from tests.engines.node.parts import SEED, seeded, variant

OSFP, QSFP112, QSFP56, MPO = Connector.OSFP, Connector.QSFP112, Connector.QSFP56, Connector.MPO12

# --- switches and adapters: the seed catalogue's (tests.engines.node.parts.seeded) ---------------------------------
QM9700 = seeded("MQM9700-NS2F")
QM9790 = seeded("MQM9790-NS2F")
QM8700 = seeded("MQM8700-HS2F")
Q3400 = seeded("Q3400-RA")
SN4600C = seeded("SN4600C")
# the tests name the Spectrum switches by their orderable numbers
SN5600 = variant(seeded("SN5600"), "MSN5600-MS2FC")
SN2201 = variant(seeded("SN2201"), "MSN2201-CB2FC")

CX7_NDR = seeded("MCX75310AAS-NEAT")
CX7_NDR200 = seeded("MCX75310AAS-HEAT")
CX7_QSFP112 = seeded("MCX715105AS-WEAT")
BF3 = seeded("900-9D3D4-00EN-HA0")
CX6_HDR = seeded("MCX653105A-HDAT")
CX8 = seeded("900-9X81E-00EX-ST0")
# Ethernet-only NICs (hypothetical test parts), variants of ConnectX-7 cards: a 100GbE QSFP28 one for the SN4600C
# and a 400GbE OSFP one
ETH_100G = variant(
    CX7_QSFP112,
    "ETH-100G-QSFP28",
    name="Ethernet 100GbE QSFP28 NIC (test part)",
    family="",
    speed_gbps=100,
    connector=Connector.QSFP28,
    protocol=Protocol.ETHERNET,
    top=None,
    price_eur=Decimal(400),
)
ETH_ONLY = variant(
    CX7_NDR,
    "ETH-400G-OSFP",
    name="Ethernet-only 400GbE OSFP NIC (test part)",
    family="",
    protocol=Protocol.ETHERNET,
    price_eur=Decimal(900),
)

SERVER = seeded("SYS-821GE-TNHR")
TWIN = MediaEnd(connector=OSFP, speed_gbps=400, top=Top.FINNED, twin=True)
OSFP_FLAT = MediaEnd(connector=OSFP, speed_gbps=400, top=Top.FLAT)
QSFP112_END = MediaEnd(connector=QSFP112, speed_gbps=400)
QSFP56_END = MediaEnd(connector=QSFP56, speed_gbps=200)


def _code(m: float) -> str:
    """NVIDIA length codes: N001 = 1 m, N01A = 1.5 m, N00A = 0.5 m."""
    whole = int(m)
    return f"{whole:02d}A" if m != whole and whole else ("00A" if m == 0.5 else f"{whole:03d}")


def _cables(prefix: str, kind: MediaKind, a: MediaEnd, b: MediaEnd, lengths, base: int, per_m: int, **kw):
    """The seed's cables of these lengths; lengths the seed does not stock are test parts priced base + per_m x m."""
    return [
        SEED.parts.get(f"{prefix}{_code(m)}")
        or MediaSpec(
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
    """The seed's transceiver, or a test part when the seed does not hold ``pn``."""
    return SEED.parts.get(pn) or MediaSpec(
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
# The same straight single-mode fibres serve XDR and NDR (NV-XDR-LX), so their ends carry 800G as in the seed.
MPO_800 = MediaEnd(connector=MPO, speed_gbps=800)
FIBRE_SM = _cables(
    "MFP7E30-N",
    MediaKind.FIBRE,
    MPO_800,
    MPO_800,
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

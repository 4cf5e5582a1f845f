"""Messages of the rack planner's findings (codes in engines.findings.rack_codes.RackCode)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engines.findings.params.racks import (
    RackAirDensity,
    RackCoolingDefault,
    RackCordOverRating,
    RackLiquidNodeInAir,
    RackManagementSwitchCount,
    RackNodeHeightUnknown,
    RackNodeInletUnknown,
    RackNodeOverPower,
    RackNodePowerUnknown,
    RackNodeTooTall,
    RackNoManagementSwitch,
    RackNoPdu,
    RackPduBusbar,
    RackPduKnownLoadOnly,
    RackPduOutletsUnknown,
    RackPduOverContinuous,
    RackPowerDefault,
    RackServerSizeAssumed,
    RackSwitchHeightUnknown,
    RackSwitchPowerUnknown,
    RackSystemHallPower,
)
from engines.racks import ElevationLabels

from .base import num, renders


def _kw(watts: float) -> str:
    return num(watts / 1000, 1)


def _cooling(value: str) -> str:
    return _("liquid cooling") if value == "liquid" else _("air cooling")


@renders(RackPowerDefault)
def _power_default(p: RackPowerDefault) -> tuple[str, str]:
    return (
        _("The facility names no rack power: the plan allows %(kw)s kW per rack, the default for %(cooling)s.")
        % {"kw": _kw(p.limit_w), "cooling": _cooling(p.cooling)},
        _("Tell us the most power one rack of your site may draw."),
    )


@renders(RackSystemHallPower)
def _system_hall_power(p: RackSystemHallPower) -> tuple[str, str]:
    values = {"part": p.part, "power": _kw(p.power_w), "default": _kw(p.default_w)}
    return (
        _(
            "The facility names no rack power: each %(part)s rack is planned at its own %(power)s kW (its power "
            "shelves are built in), not at the %(default)s kW default for racks of servers. The hall must give each "
            "of these racks %(power)s kW."
        )
        % values,
        _("Confirm that your hall gives %(power)s kW to each %(part)s rack, or name its rack power in the facility.")
        % values,
    )


@renders(RackCoolingDefault)
def _cooling_default(p: RackCoolingDefault) -> tuple[str, str]:
    return (
        _("The facility names no cooling: the plan assumes %(cooling)s, as the servers need.")
        % {"cooling": _cooling(p.cooling)},
        _("Tell us whether your site cools its racks with air or with liquid."),
    )


@renders(RackNodeTooTall)
def _too_tall(p: RackNodeTooTall) -> tuple[str, str]:
    return (
        _("%(part)s is %(height_u)sU high; a rack has only %(usable_u)sU left for servers.") % p.as_dict(),
        _("Choose taller racks or a lower server."),
    )


@renders(RackNodeOverPower)
def _over_power(p: RackNodeOverPower) -> tuple[str, str]:
    return (
        _("One %(part)s draws up to %(power)s kW, more than the %(limit)s kW a rack may draw.")
        % {"part": p.part, "power": _kw(p.power_w), "limit": _kw(p.limit_w)},
        _("If your site carries more power per rack, tell us; otherwise choose a server that draws less."),
    )


@renders(RackNodePowerUnknown)
def _node_power_unknown(p: RackNodePowerUnknown) -> tuple[str, str]:
    return (
        _("The power of %(part)s is unknown: its racks are filled by height only and their power is unknown.")
        % p.as_dict(),
        _("Check the server's power with the vendor before the racks are ordered."),
    )


@renders(RackSwitchPowerUnknown)
def _switch_power_unknown(p: RackSwitchPowerUnknown) -> tuple[str, str]:
    return (
        _("The power of %(part)s is not known from the sources; rack and facility power leave it out.") % p.as_dict(),
        _("Add the switch's power from its data sheet to count it."),
    )


@renders(RackSwitchHeightUnknown)
def _switch_height_unknown(p: RackSwitchHeightUnknown) -> tuple[str, str]:
    return (
        _("The height of %(part)s is not known from the sources; the plan reserves %(assumed_u)sU for it.")
        % p.as_dict(),
        _("Add the switch's height from its data sheet."),
    )


@renders(RackServerSizeAssumed)
def _server_size_assumed(p: RackServerSizeAssumed) -> tuple[str, str]:
    message = ngettext(
        "%(servers)s control-plane server or UFM appliance is offered without a catalogue part: the plan reserves "
        "%(assumed_u)sU for it in a management rack and leaves its power out of rack and facility power.",
        "%(servers)s control-plane servers and UFM appliances are offered without a catalogue part: the plan "
        "reserves %(assumed_u)sU for each in the management racks and leaves their power out of rack and facility "
        "power.",
        p.servers,
    )
    return (
        message % {"servers": num(p.servers), "assumed_u": p.assumed_u},
        _("Check the chosen servers' height and power against the management racks before installation."),
    )


@renders(RackAirDensity)
def _air_density(p: RackAirDensity) -> tuple[str, str]:
    message = ngettext(
        "%(racks)s air-cooled rack draws up to %(max)s kW (%(first)s), above the %(limit)s kW room air carries.",
        "%(racks)s air-cooled racks draw up to %(max)s kW (first %(first)s), above the %(limit)s kW room air carries.",
        p.racks,
    )
    return (
        message
        % {
            "racks": num(p.racks),
            "max": _kw(p.max_power_w),
            "first": p.first_rack,
            "limit": _kw(p.air_limit_w),
        },
        _("Plan containment or rear-door heat exchangers, choose liquid cooling, or put fewer servers in each rack."),
    )


@renders(RackLiquidNodeInAir)
def _liquid_in_air(p: RackLiquidNodeInAir) -> tuple[str, str]:
    return (
        _("%(part)s is liquid-cooled, but the facility is air-cooled.") % p.as_dict(),
        _(
            "An NVL72 rack cannot be air-cooled: plan facility water for its in-rack CDU, or choose air-cooled HGX "
            "nodes of the same GPU generation."
        )
        if p.rack_scale
        else _("Plan liquid cooling for these racks, or choose an air-cooled server."),
    )


@renders(RackNoPdu)
def _no_pdu(p: RackNoPdu) -> tuple[str, str]:
    return (
        _("The catalogue holds no PDU: the racks' PDUs are stated as a need and not priced."),
        _("Ask us to quote PDUs for these racks."),
    )


@renders(RackPduKnownLoadOnly)
def _pdu_known_load(p: RackPduKnownLoadOnly) -> tuple[str, str]:
    message = ngettext(
        "Part of the load of %(racks)s rack (%(first)s) is unknown: its PDUs cover the known load only.",
        "Part of the load of %(racks)s racks (first %(first)s) is unknown: their PDUs cover the known load only.",
        p.racks,
    )
    return (
        message % {"racks": num(p.racks), "first": p.first_rack},
        _("Check the PDUs against the full load before ordering."),
    )


@renders(RackPduOutletsUnknown)
def _pdu_outlets(p: RackPduOutletsUnknown) -> tuple[str, str]:
    return (
        _("PDU outlets or server power inlets are unknown: PDUs are sized by power only."),
        _("Check that the PDUs have an outlet for every power supply."),
    )


@renders(RackPduOverContinuous)
def _pdu_over_continuous(p: RackPduOverContinuous) -> tuple[str, str]:
    return (
        _(
            "%(part)s carries %(load)s kW in rack %(rack)s (and %(others)s more alike), %(pct)s %% of its "
            "%(rating)s kW: above the 80 %% a PDU may carry continuously."
        )
        % {
            "part": p.part,
            "load": _kw(p.per_pdu_w),
            "rack": p.first_rack,
            "others": max(0, p.racks - 1),
            "pct": p.load_pct,
            "rating": _kw(p.rating_w),
        },
        _("Choose a higher-rated PDU, a rack with more PDU positions, or fewer nodes per rack."),
    )


@renders(RackPduBusbar)
def _pdu_busbar(p: RackPduBusbar) -> tuple[str, str]:
    return (
        ngettext(
            "Rack %(rack)s draws %(power)s kW: the %(positions)s zero-U PDU positions of a rack carry at most "
            "%(max)s kW per feed with the catalogue's PDUs, so %(racks)s rack has no PDU planned.",
            "Rack %(rack)s draws %(power)s kW: the %(positions)s zero-U PDU positions of a rack carry at most "
            "%(max)s kW per feed with the catalogue's PDUs, so %(racks)s racks have no PDU planned.",
            p.racks,
        )
        % {
            "rack": p.first_rack,
            "power": _kw(p.power_w),
            "positions": p.positions,
            "max": _kw(p.max_w * 0.8),
            "racks": p.racks,
        },
        _("Plan a busbar or power shelf for these racks (priced on request), 63 A PDUs, or fewer nodes per rack."),
    )


@renders(RackCordOverRating)
def _cord_over_rating(p: RackCordOverRating) -> tuple[str, str]:
    return (
        _(
            "A power supply of %(part)s draws about %(current)s A at 230 V, more than any PDU outlet in the catalogue "
            "carries (the best is %(outlet)s with its cord, %(limit)s A): no cord is billed for these supplies."
        )
        % {"part": p.part, "current": num(p.current_a, 1), "outlet": p.outlet, "limit": p.outlet_current_a},
        _(
            "Ask us for PDUs whose outlets and cords are rated for this current (e.g. IEC 60309 or C21/C22) and for "
            "the server's inlet type."
        ),
    )


@renders(RackNodeInletUnknown)
def _inlet_unknown(p: RackNodeInletUnknown) -> tuple[str, str]:
    return (
        _("The power supplies of %(part)s are not known: its power cords are not counted.") % p.as_dict(),
        _("Ask us to confirm the server's power supplies and cords."),
    )


@renders(RackNoManagementSwitch)
def _no_mgmt(p: RackNoManagementSwitch) -> tuple[str, str]:
    return (
        _("No management switch was found: none is placed in the racks."),
        _("Ask us to quote an out-of-band management switch for each rack."),
    )


@renders(RackManagementSwitchCount)
def _mgmt_count(p: RackManagementSwitchCount) -> tuple[str, str]:
    return (
        _("The racks need one %(part)s each, %(needed)s in all; the fabric plan counts %(listed)s by ports.")
        % {"part": p.part, "needed": num(p.needed), "listed": num(p.listed)},
        _("Order one management switch per rack, as the rack plan places them."),
    )


@renders(RackNodeHeightUnknown)
def _height_unknown(p: RackNodeHeightUnknown) -> tuple[str, str]:
    return (
        _("The height of %(part)s is not known from the sources: its nodes are left out of the rack plan.")
        % p.as_dict(),
        _("Ask us to confirm the server's height, or plan its racks separately."),
    )


def elevation_labels() -> ElevationLabels:
    """Every word of the rack elevation picture in the active language."""
    return ElevationLabels(
        title=_("Rack elevation"),
        node=_("Node"),
        leaf=_("Leaf"),
        spine=_("Spine"),
        core=_("Core"),
        management=_("Management"),
        pdu=_("PDU"),
        storage=_("Storage switch"),
        inband=_("In-band switch"),
        oob=_("Out-of-band switch"),
        control=_("Control-plane server"),
        ufm=_("UFM appliance"),
        blank=_("Blanking"),
        count="×{n}",
        power="{kw} kW",
        power_at_least=_("at least {kw} kW"),
        power_unknown=_("power unknown"),
        feed=_("feed {feed}"),
        compute_tray=_("Compute tray"),
        nvlink_switch=_("NVLink switch tray"),
        power_shelf=_("Power shelf"),
        system_management=_("Management"),
    )


def kw_number(value: float) -> str:
    """Kilowatts in the active locale, one decimal (31.5 / 31,5)."""
    return num(value, 1)

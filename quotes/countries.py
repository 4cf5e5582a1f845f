"""ISO 3166-1 alpha-2 country codes (officially assigned, 249) and the EU member states (2025: 27).

Kept as data here because no country library is a dependency. Source: ISO 3166 Maintenance Agency's
online browsing platform; EU membership: europa.eu, "EU countries".
"""

from django.utils.translation import gettext_lazy as _


def _codes(text: str) -> frozenset[str]:
    return frozenset(text.split())


ISO_3166_ALPHA2 = _codes("""
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO
FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE
JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO
MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW
PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM
TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
""")

EU_MEMBER_STATES = _codes("AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK")

# VAT numbers carry the ISO code as prefix, except Greece (EL).
VAT_PREFIX = {code: code for code in EU_MEMBER_STATES} | {"GR": "EL"}

# Countries the wizard's quote form offers and the offer names: the EU member states and the countries we export
# to, all ISO 3166-1 alpha-2 codes that quotes.services accepts. No country library is a dependency, so the names
# are here, translated with gettext; the form sorts them by the name in the active language, the Netherlands first.
COUNTRY_NAMES = {
    # EU member states (quotes.countries.EU_MEMBER_STATES)
    "AT": _("Austria"),
    "BE": _("Belgium"),
    "BG": _("Bulgaria"),
    "CY": _("Cyprus"),
    "CZ": _("Czechia"),
    "DE": _("Germany"),
    "DK": _("Denmark"),
    "EE": _("Estonia"),
    "ES": _("Spain"),
    "FI": _("Finland"),
    "FR": _("France"),
    "GR": _("Greece"),
    "HR": _("Croatia"),
    "HU": _("Hungary"),
    "IE": _("Ireland"),
    "IT": _("Italy"),
    "LT": _("Lithuania"),
    "LU": _("Luxembourg"),
    "LV": _("Latvia"),
    "MT": _("Malta"),
    "NL": _("Netherlands"),
    "PL": _("Poland"),
    "PT": _("Portugal"),
    "RO": _("Romania"),
    "SE": _("Sweden"),
    "SI": _("Slovenia"),
    "SK": _("Slovakia"),
    # Export (0% VAT)
    "AE": _("United Arab Emirates"),
    "AU": _("Australia"),
    "BR": _("Brazil"),
    "CA": _("Canada"),
    "CH": _("Switzerland"),
    "GB": _("United Kingdom"),
    "IL": _("Israel"),
    "IN": _("India"),
    "IS": _("Iceland"),
    "JP": _("Japan"),
    "KR": _("South Korea"),
    "LI": _("Liechtenstein"),
    "MX": _("Mexico"),
    "NO": _("Norway"),
    "NZ": _("New Zealand"),
    "QA": _("Qatar"),
    "SA": _("Saudi Arabia"),
    "SG": _("Singapore"),
    "TR": _("Türkiye"),
    "TW": _("Taiwan"),
    "US": _("United States"),
    "ZA": _("South Africa"),
}


def country_name(code: str) -> str:
    """The country's name in the active language; the code itself for a country the form does not offer."""
    name = COUNTRY_NAMES.get(code)
    return str(name) if name is not None else code

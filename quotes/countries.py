"""Countries: the ISO 3166-1 alpha-2 codes and their names from django-countries, the EU member states from
python-stdnum's VAT module, and the countries the quote form offers (a business choice, kept here).

Stored values and API fields are the ISO codes; names are django-countries' (translated by its own catalogue),
with "United States" for US (settings.COUNTRIES_OVERRIDE), the name the offers have always printed.
"""

from django_countries import countries
from django_countries.data import COUNTRIES
from stdnum.eu import vat as eu_vat

ISO_3166_ALPHA2 = frozenset(COUNTRIES)

# python-stdnum's VAT member states, less the VAT-only prefix XI (Northern Ireland), which is no ISO country.
EU_MEMBER_STATES = frozenset(code.upper() for code in eu_vat.MEMBER_STATES) & ISO_3166_ALPHA2

# VAT numbers carry the ISO code as prefix, except Greece (EL).
VAT_PREFIX = {code: code for code in EU_MEMBER_STATES} | {"GR": "EL"}

# The countries we export to (0 % VAT) besides the EU member states; the wizard's quote form offers both.
EXPORT_COUNTRIES = frozenset(
    [
        "AE",
        "AU",
        "BR",
        "CA",
        "CH",
        "GB",
        "IL",
        "IN",
        "IS",
        "JP",
        "KR",
        "LI",
        "MX",
        "NO",
        "NZ",
        "QA",
        "SA",
        "SG",
        "TR",
        "TW",
        "US",
        "ZA",
    ]
)
OFFERED_COUNTRIES = EU_MEMBER_STATES | EXPORT_COUNTRIES


def offered_country_names() -> list[tuple[str, str]]:
    """(code, name in the active language) of every country the quote form offers, in no particular order."""
    return [(code, countries.name(code)) for code in sorted(OFFERED_COUNTRIES)]


def country_name(code: str) -> str:
    """The country's name in the active language; the code itself for a country the form does not offer."""
    return countries.name(code) if code in OFFERED_COUNTRIES else code

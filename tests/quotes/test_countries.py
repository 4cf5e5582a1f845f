"""Countries come from maintained libraries: the ISO codes and names from django-countries, the EU member states
from python-stdnum; the names the offers print are the ones they always printed."""

from django.utils import translation

from quotes.countries import EU_MEMBER_STATES, ISO_3166_ALPHA2, OFFERED_COUNTRIES, VAT_PREFIX, country_name


def test_the_codes_are_iso_3166_alpha2_and_the_eu_has_its_27_member_states():
    assert len(ISO_3166_ALPHA2) == 249 and all(len(code) == 2 and code.isupper() for code in ISO_3166_ALPHA2)
    assert (
        frozenset(
            [
                "AT",
                "BE",
                "BG",
                "CY",
                "CZ",
                "DE",
                "DK",
                "EE",
                "ES",
                "FI",
                "FR",
                "GR",
                "HR",
                "HU",
                "IE",
                "IT",
                "LT",
                "LU",
                "LV",
                "MT",
                "NL",
                "PL",
                "PT",
                "RO",
                "SE",
                "SI",
                "SK",
            ]
        )
        == EU_MEMBER_STATES
    )
    assert "XI" not in EU_MEMBER_STATES and VAT_PREFIX["GR"] == "EL" and VAT_PREFIX["NL"] == "NL"
    assert EU_MEMBER_STATES <= OFFERED_COUNTRIES <= ISO_3166_ALPHA2


def test_country_names_in_both_languages_and_the_code_for_a_country_not_offered():
    with translation.override("en"):
        assert [country_name(c) for c in ("NL", "US", "KR", "TR", "CZ")] == [
            "Netherlands",
            "United States",
            "South Korea",
            "Türkiye",
            "Czechia",
        ]
        assert country_name("FJ") == "FJ"
    with translation.override("nl"):
        assert [country_name(c) for c in ("NL", "US", "DE", "GR")] == [
            "Nederland",
            "Verenigde Staten",
            "Duitsland",
            "Griekenland",
        ]

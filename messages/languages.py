"""The languages the product speaks. ``settings.LANGUAGES`` is the one list: every door (the wizard's language
switcher, the API's ``lang`` and ``language`` fields, the CLI's ``--lang``), the findings, the rule catalogue and
the quote documents take their languages from here, so a new language is its .po file and one entry in that
setting. A language without a catalogue of its own falls back to the English message ids.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import get_language_info


def language_codes() -> tuple[str, ...]:
    """The codes of settings.LANGUAGES, in the setting's order (``("en", "nl")``)."""
    return tuple(code for code, _name in settings.LANGUAGES)


def default_language() -> str:
    """The language of a request that names none the product speaks: settings.LANGUAGE_CODE."""
    return supported_language(settings.LANGUAGE_CODE) or language_codes()[0]


def supported_language(code: object) -> str | None:
    """The language of settings.LANGUAGES that ``code`` names, or None: the code itself (any case), else its
    primary subtag (``nl-BE`` -> ``nl``)."""
    wanted = str(code or "").strip().lower().replace("_", "-")
    codes = {c.lower(): c for c in language_codes()}
    if wanted in codes:
        return codes[wanted]
    return codes.get(wanted.split("-", 1)[0]) if wanted else None


def resolve_language(code: object) -> str:
    """``code`` when the product speaks it (or its primary subtag), otherwise the default language."""
    return supported_language(code) or default_language()


def language_name(code: str) -> str:
    """A language's name in that language (``Nederlands``, ``Deutsch``), as a language switcher shows it; the
    code itself for a language Django has no name for."""
    try:
        return str(get_language_info(code)["name_local"])
    except KeyError:
        return str(dict(settings.LANGUAGES).get(code, code))


def language_choices() -> list[tuple[str, str]]:
    """(code, name in that language) for every language, in the setting's order."""
    return [(code, language_name(code)) for code in language_codes()]


def languages_named() -> str:
    """Every language with its code, named in the active language, as an error message offers them:
    ``English (en), Dutch (nl)``."""
    return ", ".join(f"{name} ({code})" for code, name in settings.LANGUAGES)

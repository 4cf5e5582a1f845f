"""Signed, expiring download links for e-mails: they sign the quote's opaque ``download_id`` (never its token)
and expire after settings.QUOTE_LINK_MAX_AGE."""

from __future__ import annotations

from django.conf import settings
from django.core import signing

from ..models import Quote

LINK_SALT = "quotes.download-link.v2"
FILE_KINDS = ("pdf", "xlsx", "order")  # order: the order confirmation of an accepted quote


class DownloadLinkError(Exception):
    """A download link that does not open: ``expired`` (older than QUOTE_LINK_MAX_AGE) or invalid."""

    def __init__(self, *, expired: bool):
        self.expired = expired
        super().__init__("expired" if expired else "invalid")


def _link_signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=LINK_SALT)


def download_link_sign(*, quote: Quote, kind: str) -> str:
    """The signed part of an e-mailed download link: the quote's opaque download id and the kind, timestamped;
    it expires after settings.QUOTE_LINK_MAX_AGE. It carries no token: the link is the only credential the
    e-mail holds, and it stops working."""
    if kind not in FILE_KINDS:
        raise ValueError(kind)
    return _link_signer().sign(f"{quote.download_id}.{kind}")


def _unsigned(signer: signing.TimestampSigner, signed: str) -> str:
    """The value of a link signed by ``signer`` and younger than settings.QUOTE_LINK_MAX_AGE; DownloadLinkError
    (expired or invalid) otherwise."""
    try:
        return signer.unsign(signed, max_age=settings.QUOTE_LINK_MAX_AGE)
    except signing.SignatureExpired:
        raise DownloadLinkError(expired=True) from None
    except signing.BadSignature:
        raise DownloadLinkError(expired=False) from None


def download_link_open(signed: str) -> tuple[Quote, str]:
    """(quote, kind) of a valid, unexpired signed link. Raises DownloadLinkError (expired or invalid)."""
    value = _unsigned(_link_signer(), signed)
    download_id, _sep, kind = value.rpartition(".")
    quote = Quote.objects.filter(download_id=download_id).first() if download_id else None
    if quote is None or kind not in FILE_KINDS:
        raise DownloadLinkError(expired=False)
    return quote, kind


OPEN_SALT = "quotes.open-link.v1"


def _open_signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=OPEN_SALT)


def quote_open_link_sign(*, quote: Quote) -> str:
    """The signed part of an e-mailed link that shows ``quote`` on the quote step of the browser that opens it (a
    customer back on another device). Signs the opaque download id, never the token; expires after
    settings.QUOTE_LINK_MAX_AGE like the download links."""
    return _open_signer().sign(quote.download_id)


def quote_open_link_open(signed: str) -> Quote:
    """The quote of a valid, unexpired open link. Raises DownloadLinkError (expired or invalid)."""
    download_id = _unsigned(_open_signer(), signed)
    quote = Quote.objects.select_related("configuration").filter(download_id=download_id).first()
    if quote is None:
        raise DownloadLinkError(expired=False)
    return quote


def absolute_url(path: str) -> str:
    return settings.QUOTE_SITE_URL.rstrip("/") + path


ACCEPT_SALT = "quotes.accept-link.v1"


def accept_link_sign(*, quote: Quote) -> str:
    """The signed part of the offer e-mail's "accept or decline online" link: the quote's opaque download id,
    timestamped, under its own salt (a download link never opens the acceptance, nor the other way round). It
    expires after settings.QUOTE_LINK_MAX_AGE; the quote's own state (issued, unexpired, newest) decides the rest."""
    return signing.TimestampSigner(salt=ACCEPT_SALT).sign(quote.download_id)


def accept_link_open(signed: str) -> Quote:
    """The quote of a valid, unexpired acceptance link. Raises DownloadLinkError (expired or invalid)."""
    try:
        download_id = signing.TimestampSigner(salt=ACCEPT_SALT).unsign(signed, max_age=settings.QUOTE_LINK_MAX_AGE)
    except signing.SignatureExpired:
        raise DownloadLinkError(expired=True) from None
    except signing.BadSignature:
        raise DownloadLinkError(expired=False) from None
    quote = Quote.objects.select_related("configuration").filter(download_id=download_id).first()
    if quote is None:
        raise DownloadLinkError(expired=False)
    return quote

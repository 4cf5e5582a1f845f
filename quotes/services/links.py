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


def download_link_open(signed: str) -> tuple[Quote, str]:
    """(quote, kind) of a valid, unexpired signed link. Raises DownloadLinkError (expired or invalid)."""
    try:
        value = _link_signer().unsign(signed, max_age=settings.QUOTE_LINK_MAX_AGE)
    except signing.SignatureExpired:
        raise DownloadLinkError(expired=True) from None
    except signing.BadSignature:
        raise DownloadLinkError(expired=False) from None
    download_id, _sep, kind = value.rpartition(".")
    quote = Quote.objects.filter(download_id=download_id).first() if download_id else None
    if quote is None or kind not in FILE_KINDS:
        raise DownloadLinkError(expired=False)
    return quote, kind


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

"""Quotes: a numbered, priced offer for one configuration, frozen when issued.

Lifecycle (``status``): a request becomes ``awaiting_review`` when the design has warnings no sales engineer has
accepted yet (or, for a customer's online request, when it is above the instant-quote limit: quotes.policy),
``awaiting_approval`` when its discount exceeds the approval threshold, otherwise ``issued``.
A newer revision of the same number makes the older one ``superseded`` (still readable). An issued, unexpired
quote becomes ``accepted`` (an order: frozen for good, never revised) or ``declined`` when the customer answers it
(QuoteDecision). Issuing freezes the
lines, totals, VAT, design and validation receipt into ``frozen``; the documents are a pure rendering of it.

Documents (``doc_status``): ``pending`` → ``building`` → ``ready`` | ``failed``, built by a Celery task that
claims the row with a conditional update (see quotes.services.quote_documents_build).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .snapshot import FrozenQuote

if TYPE_CHECKING:
    from design.jsontext import JsonObject


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_download_id() -> str:
    """The opaque id an e-mailed download link signs. Not a credential by itself: only a signed, unexpired link
    (quotes.services.download_link_sign) opens the documents with it."""
    return secrets.token_urlsafe(18)


class QuoteCounter(models.Model):
    """The last quote number handed out in a year. Locked (SELECT … FOR UPDATE) while a number is taken.

    The counter is incremented inside the transaction that creates the quote, so a rolled-back request
    returns its number; a number is never handed out twice. Gaps are tolerated (e.g. a deleted test quote).
    """

    year = models.PositiveSmallIntegerField(primary_key=True)
    last = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.year}: {self.last}"


class Quote(models.Model):
    class Status(models.TextChoices):
        AWAITING_REVIEW = "awaiting_review", _("Awaiting review by a sales engineer")
        AWAITING_APPROVAL = "awaiting_approval", _("Awaiting discount approval")
        ISSUED = "issued", _("Issued")
        SUPERSEDED = "superseded", _("Superseded by a newer revision")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    class ReviewReason(models.TextChoices):
        """Why a quote waits for a sales engineer: a customer's online request by quotes.policy, a staff or CRM
        quote for its unaccepted warnings; empty otherwise."""

        NONE = "", _("None")
        WARNINGS = "warnings", _("The design has warnings")
        ON_REQUEST = "on_request", _("Lines priced on request")
        ZERO_NET = "zero_net", _("No priced line")
        AMOUNT = "amount", _("Above the instant-quote limit")

    class DocStatus(models.TextChoices):
        PENDING = "pending", _("Pending")
        BUILDING = "building", _("Building")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    class VatCategory(models.TextChoices):
        DOMESTIC = "domestic", _("Netherlands")
        REVERSE_CHARGE = "reverse_charge", _("EU business, reverse charged")
        EU_CONSUMER = "eu_consumer", _("EU consumer")
        EXPORT = "export", _("Export outside the EU")

    number = models.CharField(_("number"), max_length=32, unique=True)
    base_number = models.CharField(_("base number"), max_length=24, db_index=True)
    revision = models.PositiveSmallIntegerField(_("revision"), default=1)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, db_index=True)
    review_reason = models.CharField(
        _("review reason"), max_length=10, choices=ReviewReason.choices, default="", blank=True
    )
    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    download_id = models.CharField(max_length=32, unique=True, default=new_download_id, editable=False)
    configuration = models.ForeignKey("configurator.Configuration", on_delete=models.PROTECT, related_name="quotes")
    # An expansion quote's original: the won or issued quote whose installed cluster it grows (its lines are what
    # the growth adds; quotes.services.expanding). Kept by every revision.
    expansion_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="expansions",
        verbose_name=_("expansion of"),
    )
    # Or the configuration marked as built whose installed cluster it grows (its design, kept since it was built).
    expansion_of_built = models.ForeignKey(
        "configurator.Configuration",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="built_expansions",
        verbose_name=_("expansion of built configuration"),
    )
    channel = models.CharField(_("channel"), max_length=8, default="web")
    crm_reference = models.CharField(_("CRM reference"), max_length=100, blank=True, db_index=True)
    language = models.CharField(_("language"), max_length=8, default="en")

    customer_name = models.CharField(_("customer name"), max_length=200)
    customer_company = models.CharField(_("company"), max_length=200, blank=True)
    customer_email = models.EmailField(_("e-mail"))
    customer_country = models.CharField(_("country"), max_length=2)
    customer_vat_number = models.CharField(_("VAT number"), max_length=20, blank=True)
    # The Dutch Chamber of Commerce number (8 digits), optional: with the VAT number it finds the customer's price
    # agreement (PriceAgreement).
    customer_kvk = models.CharField(_("KvK number"), max_length=8, blank=True)
    # The billing address: asked in the wizard, optional in the API (the offer then says it is to be confirmed).
    customer_street = models.CharField(_("street and number"), max_length=200, blank=True)
    customer_postal_code = models.CharField(_("postal code"), max_length=16, blank=True)
    customer_city = models.CharField(_("city"), max_length=100, blank=True)

    currency = models.CharField(max_length=3, default="EUR", editable=False)
    discount_percent = models.DecimalField(_("quote discount (%)"), max_digits=5, decimal_places=2, default=0)
    line_discounts = models.JSONField(
        _("line discounts (%)"), default=dict, blank=True, help_text=_("Part number → discount percentage")
    )
    subtotal = models.DecimalField(_("list value"), max_digits=14, decimal_places=2, default=0)
    discount = models.DecimalField(_("discount"), max_digits=14, decimal_places=2, default=0)
    net = models.DecimalField(_("net, excl. VAT"), max_digits=14, decimal_places=2, default=0)
    vat_category = models.CharField(max_length=16, choices=VatCategory.choices, blank=True)
    vat_rate = models.DecimalField(_("VAT rate (%)"), max_digits=5, decimal_places=2, default=0)
    vat_amount = models.DecimalField(_("VAT"), max_digits=14, decimal_places=2, default=0)
    total = models.DecimalField(_("total, incl. VAT"), max_digits=14, decimal_places=2, default=0)
    vat_notice = models.CharField(_("VAT notice"), max_length=200, blank=True)

    issued_at = models.DateTimeField(_("issued at"), null=True, blank=True)
    valid_until = models.DateField(_("valid until"), null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("approved by"),
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    # Four eyes: who set this revision's discounts (the staff user, or the user behind the API client). Nobody
    # approves a discount they set themselves, whatever the door (quotes.services.quote_approve).
    discount_set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("discount set by"),
    )
    # Everything the documents print, frozen at issue (schema "quote/v1"); before issue, a preview. Only the
    # documents read it: lists and reads of quotes leave it in the database (it holds the whole validation result)
    # and show the columns below, copied from it when it is written (quotes.services.freezing).
    frozen = models.JSONField(default=dict, blank=True)
    # Staff only, never in ``frozen`` (which every customer document renders): the purchase price of each part
    # (part number → unit EUR, from the catalogue's cost_price_eur when priced, fixed at issue) and the margin over
    # the lines whose cost is known (quotes.pricing.quote_margin); None while no line's cost is known.
    costs = models.JSONField(default=dict, blank=True, editable=False)
    margin_eur = models.DecimalField(_("margin (EUR)"), max_digits=14, decimal_places=2, null=True, blank=True)
    margin_percent = models.DecimalField(_("margin (%)"), max_digits=9, decimal_places=2, null=True, blank=True)
    # Why the quote waits (or waited) for a second person: "discount" above the threshold, "margin" below the floor.
    approval_reasons = models.JSONField(default=list, blank=True, editable=False)
    at_least = models.BooleanField(
        _("at least"), default=False, help_text=_("A line is priced on request: every amount leaves it out.")
    )
    indicative = models.BooleanField(
        _("indicative"), default=False, help_text=_("Issued at once from list prices, without a sales engineer.")
    )
    design_hash = models.CharField(_("design hash"), max_length=64, blank=True, editable=False)
    # The customer's price agreement as the quote was priced with it (also in the snapshot, for the documents).
    agreement = models.JSONField(_("price agreement"), null=True, blank=True, editable=False)

    doc_status = models.CharField(
        _("document status"), max_length=10, choices=DocStatus.choices, default=DocStatus.PENDING, db_index=True
    )
    progress = models.PositiveSmallIntegerField(default=0)
    failure_message = models.TextField(blank=True)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    # Until when the build claimed at claimed_at is held: the building worker renews it while it works, so a dead
    # worker's claim runs out within settings.QUOTE_BUILD_LEASE (quotes.services.builds).
    lease_until = models.DateTimeField(null=True, blank=True)
    build_attempts = models.PositiveSmallIntegerField(default=0)
    pdf = models.FileField(upload_to="quotes/", max_length=255, blank=True)
    xlsx = models.FileField(upload_to="quotes/", max_length=255, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [
            ("approve_quote", "Can approve quotes with a discount above the threshold"),
            ("issue_quote", "Can issue quotes whose design warnings were accepted"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["base_number", "revision"], name="quote_unique_revision"),
            models.CheckConstraint(
                condition=Q(discount_percent__gte=0, discount_percent__lte=100), name="quote_discount_0_100"
            ),
            models.CheckConstraint(condition=Q(progress__lte=100), name="quote_progress_0_100"),
            models.CheckConstraint(condition=Q(revision__gte=1), name="quote_revision_positive"),
            # An issued quote always carries its frozen snapshot and validity.
            models.CheckConstraint(
                condition=~Q(status="issued") | Q(issued_at__isnull=False, valid_until__isnull=False),
                name="quote_issued_has_snapshot",
            ),
        ]

    def __str__(self) -> str:
        return self.number

    @property
    def is_expired(self) -> bool:
        """An offer is binding until the end of ``valid_until`` (Europe/Amsterdam)."""
        return self.valid_until is not None and timezone.localdate() > self.valid_until

    @property
    def is_active(self) -> bool:
        return self.status != self.Status.SUPERSEDED

    @property
    def display_status(self) -> str:
        if self.status == self.Status.ISSUED and self.is_expired:
            return str(_("Expired"))
        return str(self.get_status_display())

    @property
    def review_note(self) -> str:
        """Why this request waits for a sales engineer and when the quote follows, in the customer's words
        (quotes.policy.review_note); '' unless it waits for review."""
        from .policy import review_note

        return review_note(self.review_reason) if self.status == self.Status.AWAITING_REVIEW else ""

    # Set (not stored) on the open quote a repeated online request gets back (quotes.services.quote_request).
    repeated = False

    @property
    def snapshot(self) -> FrozenQuote:
        """The frozen snapshot, typed (quotes.snapshot); an empty one before the quote was first priced."""
        return FrozenQuote.from_json(self.frozen or {})

    @property
    def lines(self) -> list[JsonObject]:
        return list(self.frozen.get("lines", []))


class QuoteCatalog(models.Model):
    """A catalogue state a quote was validated against, as the engines saw it (engines.catalog_json: every part's facts,
    in the catalogue's order), kept once per state: the quotes frozen against it name its ``digest`` in their
    receipt (``receipt.catalog_digest``). A won quote's hand-over exports validate its frozen design against it, so
    a part renamed, repriced or deleted since changes nothing in them (quotes.services.handover)."""

    digest = models.CharField(max_length=64, unique=True)  # engines.catalog_json.catalog_digest of ``view``
    version = models.CharField(max_length=100)  # the catalogue version of the receipt
    view = models.JSONField()  # engines.catalog_json.catalog_json
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.version} ({self.digest[:12]})"


class QuoteDecision(models.Model):
    """The customer's answer to an issued quote: accepted (an order) or declined, at most one per quote (the
    one-to-one row is the lock: two acceptances racing, the second is refused).

    Who answered and how: the customer online (the signed link of the offer e-mail, or the quote page), a sales
    engineer on the customer's behalf, or a CRM through the API (``channel``), with the name, position, e-mail,
    purchase-order number, the time and the address it came from. An acceptance has the customer's agreement to
    the terms (``terms_accepted``); a decline its reason. The order confirmation (orderbevestiging) of an accepted
    quote is a pure rendering of the quote's frozen snapshot and this row, built by the worker
    (quotes.services.orders), with the same claim-by-conditional-update as the quote's documents.
    """

    class Outcome(models.TextChoices):
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    class Channel(models.TextChoices):
        CUSTOMER = "customer", _("The customer, online")
        STAFF = "staff", _("A sales engineer on the customer's behalf")
        API = "api", _("A CRM, through the API")

    quote = models.OneToOneField(Quote, on_delete=models.CASCADE, related_name="decision")
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices)
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    name = models.CharField(_("name"), max_length=200, blank=True)
    position = models.CharField(_("position"), max_length=100, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    po_number = models.CharField(_("purchase order number"), max_length=64, blank=True)
    note = models.TextField(_("note"), max_length=2000, blank=True)
    reason = models.TextField(_("reason"), max_length=2000, blank=True)
    terms_accepted = models.BooleanField(_("terms accepted"), default=False)
    decided_at = models.DateTimeField(_("decided at"), default=timezone.now)
    ip_address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    api_client = models.CharField(_("API client"), max_length=100, blank=True)

    confirmation_status = models.CharField(
        _("order confirmation"), max_length=10, choices=Quote.DocStatus.choices, blank=True
    )
    confirmation_pdf = models.FileField(upload_to="quotes/", max_length=255, blank=True)
    confirmation_failure = models.TextField(blank=True)
    confirmation_claimed_at = models.DateTimeField(null=True, blank=True)
    confirmation_attempts = models.PositiveSmallIntegerField(default=0)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~Q(outcome="accepted") | Q(terms_accepted=True), name="quote_acceptance_has_terms"
            ),
            models.CheckConstraint(condition=~Q(outcome="declined") | ~Q(reason=""), name="quote_decline_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.quote_id}: {self.outcome}"

    @property
    def accepted(self) -> bool:
        return self.outcome == self.Outcome.ACCEPTED


class PriceAgreement(models.Model):
    """The terms agreed with one customer company: a discount per catalogue category and a payment term.

    The company is identified by its VAT number (compact, with its country prefix, as quotes.vat normalises it) or,
    for a Dutch company, its KvK number (Chamber of Commerce, 8 digits); at least one of them. A quote for a customer
    with that VAT or KvK number applies the active agreement (quotes.services.agreements): the agreed discount on
    every line of a category, shown as the agreement's and counted toward the approval rule like any discount, and
    the agreed payment term. Kept by staff in the admin and settable by a CRM through the API.
    """

    company = models.CharField(_("company"), max_length=200)
    vat_number = models.CharField(_("VAT number"), max_length=20, blank=True)
    kvk_number = models.CharField(_("KvK number"), max_length=8, blank=True)
    payment_days = models.PositiveSmallIntegerField(
        _("payment term (days)"), null=True, blank=True, help_text=_("Empty: the standard payment term.")
    )
    reference = models.CharField(_("agreement reference"), max_length=100, blank=True)
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["company", "id"]
        verbose_name = _("price agreement")
        verbose_name_plural = _("price agreements")
        constraints = [
            models.CheckConstraint(condition=~Q(vat_number="") | ~Q(kvk_number=""), name="agreement_identifies"),
            models.UniqueConstraint(
                fields=["vat_number"], condition=~Q(vat_number=""), name="agreement_one_per_vat_number"
            ),
            models.UniqueConstraint(
                fields=["kvk_number"], condition=~Q(kvk_number=""), name="agreement_one_per_kvk_number"
            ),
            models.CheckConstraint(
                condition=Q(payment_days__isnull=True) | Q(payment_days__lte=365), name="agreement_payment_days"
            ),
        ]

    def __str__(self) -> str:
        return self.company

    @property
    def discount_map(self) -> dict:
        """Catalogue category → agreed discount (%)."""
        return {d.category: d.discount_percent for d in self.discounts.all()}


class AgreementDiscount(models.Model):
    """The discount agreed on every line of one catalogue category (Part.category)."""

    agreement = models.ForeignKey(PriceAgreement, on_delete=models.CASCADE, related_name="discounts")
    # A catalogue category (catalog Part.category); checked by quotes.services.agreements and the admin's form
    # (the migrations of quotes import this module and must not reach the catalogue's vocabulary).
    category = models.CharField(_("category"), max_length=16)
    discount_percent = models.DecimalField(_("discount (%)"), max_digits=5, decimal_places=2)

    class Meta:
        ordering = ["category"]
        verbose_name = _("agreed discount")
        verbose_name_plural = _("agreed discounts")
        constraints = [
            models.UniqueConstraint(fields=["agreement", "category"], name="agreement_one_discount_per_category"),
            models.CheckConstraint(
                condition=Q(discount_percent__gte=0, discount_percent__lte=100), name="agreement_discount_0_100"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.category}: {self.discount_percent}%"

"""Services of the quote lifecycle (write side). Every door (wizard, API, admin, tasks) calls these.

Business rules, in one home:

* A quote is only made for a design that validates without error findings (configurator.services.design_validate,
  the same service every door uses). Input errors are reported per field; nothing is stored.
* Warnings must be accepted by a sales engineer (configurator WarningAcknowledgement); until then the quote waits
  in ``awaiting_review``. The accepted warnings and their reasons are printed on the quote. An expansion quote's
  warnings of what its growth crosses (a new fabric tier, installed racks drawing more, installed devices moving)
  are accepted the same way.
* A discount above settings.QUOTE_DISCOUNT_APPROVAL_THRESHOLD (quote discount, any line discount, or both
  combined on a line) waits in ``awaiting_approval`` until someone with ``quotes.approve_quote`` approves it.
  There is no other way to issue it: the admin makes status and discounts read-only, the API calls these.
* Issuing freezes lines, totals, VAT, the design and the validation receipt into ``Quote.frozen``; later
  catalogue changes never alter an issued quote. The documents are rendered from ``frozen`` alone, by a Celery
  task enqueued after commit.
* Issuing a reviewed quote needs the permission ``quotes.issue_quote`` (a staff user without it is refused).
  Approving needs ``quotes.approve_quote`` and four eyes on every door and channel (wizard, admin, API): whoever
  set the discount (``discount_set_by``: the staff user, or the user an API client acts as, recorded on the quote
  and carried over to revisions that keep its discounts) cannot approve it, nor can the user who made the
  revision (``created_by``). An API client approves only where its linked user differs from both.
* Customers' online requests (channel ``web``) follow quotes.policy: every line priced, a net above zero and up to
  settings.QUOTE_INSTANT_LIMIT_EUR, and without warnings they are issued at once as indicative quotes; the others
  wait for a sales engineer (``review_reason``), who is e-mailed at settings.QUOTE_SALES_EMAIL, and the customer is
  e-mailed in their language that the request waits; a repeated request for an unchanged design returns the open
  quote. Staff and CRM quotes keep the rules below (a quote waiting for its warnings has ``review_reason``
  ``warnings``, so every channel's waiting quote says why on the dashboard).
* One request at a time per configuration: the configuration row is locked while a quote is created, and a new
  request is refused while the configuration has a quote awaiting review or approval (revise that one), or when
  the same request (same channel, customer e-mail and CRM reference) was issued less than DUPLICATE_WINDOW ago
  (a double click or a retried submit).
* Pricing and rounding: quotes.pricing; VAT: quotes.vat; numbers: quotes.numbering.
* A customer company's price agreement (by VAT or KvK number) applies its agreed discount per catalogue category
  and its payment term to the quote, counted toward the approval threshold (quotes.services.agreements); a margin
  below settings.QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT needs approval as a discount above the threshold does.
* An issued, unexpired newest revision can be accepted (an order: frozen for good, never revised) or declined
  with a reason, online, by a sales engineer on the customer's behalf or by a CRM (quotes.services.deciding).
* E-mailed download links sign an opaque ``Quote.download_id`` (never the token) and expire after

Modules, by what they do: ``inputs`` (cleaning, QuoteError), ``evaluation`` (validate and price a design),
``preview`` (the price preview), ``freezing`` (the snapshot on the quote), ``requesting`` (request and revise),
``issuing`` (issue, approve), ``agreements`` (price agreements per customer company), ``deciding`` (the customer
accepts or declines), ``orders`` (the order confirmation), ``builds`` (the documents and their Celery tasks),
``links`` (signed download links), ``mail``, ``expansion`` (the expansion of an installed cluster: the delta bill
and the re-cabling) and ``expanding`` (the expansion quote of a won or issued quote). Import the services from here.
"""

from __future__ import annotations

from .agreements import price_agreement_save
from .builds import (
    document_names,
    enqueue_build,
    quote_documents_build,
    quote_documents_claim,
    quote_documents_fail,
    quote_documents_lease,
    quote_documents_rebuild,
    quote_documents_release,
    quote_internal_pdf,
    quotes_requeue_stuck,
)
from .deciding import QuoteStateError, quote_accept, quote_decline, quote_may_answer
from .evaluation import pending_growth
from .expanding import (
    built_expansion_design,
    built_expansion_name,
    expansion_design,
    expansion_name,
    quote_built_expansion_request,
    quote_expandable,
    quote_expansion_plan,
    quote_expansion_request,
)
from .handover import quote_export
from .inputs import ADDRESS_FIELDS, CHANNELS, EMAIL_MAX_LENGTH, MODEL_FIELDS, QuoteError, QuoteErrorCode
from .issuing import quote_approve, quote_issue, quote_may_approve
from .links import (
    FILE_KINDS,
    LINK_SALT,
    DownloadLinkError,
    absolute_url,
    accept_link_open,
    accept_link_sign,
    download_link_open,
    download_link_sign,
    quote_open_link_open,
    quote_open_link_sign,
)
from .mail import (
    quote_notify_accepted,
    quote_notify_declined,
    quote_notify_ready,
    quote_notify_received,
    quote_notify_review,
    quote_send_open_link,
)
from .orders import confirmation_name, order_confirmation_rebuild
from .preview import QuotePreview, quote_preview
from .requesting import DUPLICATE_WINDOW, customer_of, quote_request, quote_revise

__all__ = [
    "ADDRESS_FIELDS",
    "CHANNELS",
    "DUPLICATE_WINDOW",
    "customer_of",
    "EMAIL_MAX_LENGTH",
    "FILE_KINDS",
    "LINK_SALT",
    "MODEL_FIELDS",
    "DownloadLinkError",
    "QuoteError",
    "QuoteErrorCode",
    "QuoteStateError",
    "QuotePreview",
    "absolute_url",
    "accept_link_open",
    "accept_link_sign",
    "confirmation_name",
    "document_names",
    "download_link_open",
    "download_link_sign",
    "enqueue_build",
    "built_expansion_design",
    "built_expansion_name",
    "expansion_design",
    "expansion_name",
    "order_confirmation_rebuild",
    "price_agreement_save",
    "quote_accept",
    "quote_approve",
    "quote_decline",
    "quote_documents_build",
    "quote_expandable",
    "pending_growth",
    "quote_export",
    "quote_built_expansion_request",
    "quote_expansion_plan",
    "quote_expansion_request",
    "quote_documents_claim",
    "quote_documents_fail",
    "quote_documents_lease",
    "quote_documents_rebuild",
    "quote_documents_release",
    "quote_internal_pdf",
    "quote_issue",
    "quote_may_answer",
    "quote_may_approve",
    "quote_notify_accepted",
    "quote_notify_declined",
    "quote_notify_ready",
    "quote_notify_received",
    "quote_notify_review",
    "quote_open_link_open",
    "quote_open_link_sign",
    "quote_preview",
    "quote_request",
    "quote_revise",
    "quote_send_open_link",
    "quotes_requeue_stuck",
]

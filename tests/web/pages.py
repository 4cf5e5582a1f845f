"""What the web tests share: designs in known states, the quote form as a customer posts it, step URLs."""

from __future__ import annotations

from django.urls import reverse

from configurator.bom import design_bom
from configurator.examples import h200_training_cluster
from configurator.snapshot import catalog_snapshot
from engines.cluster.bill import bom_total
from engines.intake.parse import parse_design
from tests.factories import grant, set_price
from tests.results import validate_json

__all__ = [
    "B200_IN_H100_SERVER",
    "CUSTOMER",
    "H200_CLUSTER",
    "PRICED",
    "WITH_WARNING",
    "grant",
    "list_total",
    "pdu_on_request",
    "url",
]

H200_CLUSTER = {**h200_training_cluster(), "name": "4 × SYS-821GE-TNHR, HGX-H200-8GPU"}
B200_IN_H100_SERVER = {
    "schema": "design/v1",
    "name": "B200 in an H100-generation server",
    "node_groups": [
        {
            "name": "gpu",
            "count": 1,
            "server": "SYS-821GE-TNHR",
            "components": [{"part": "HGX-B200-8GPU", "quantity": 1}],
        }
    ],
}
WITH_WARNING = {**H200_CLUSTER, "fabric": {"switch": "MQM9790-NS2F"}}  # unmanaged: FABRIC_SM_REQUIRED
# One HGX H200 node whose every line the seed prices (about € 437,000 net, under the instant-quote limit): a
# customer's request is issued at once. (The four-node cluster adds control-plane servers priced on request.)
PRICED = {
    "schema": "design/v1",
    "name": "1 × SYS-821GE-TNHR, HGX-H200-8GPU",
    "node_groups": [
        {
            "name": "gpu",
            "count": 1,
            "server": "SYS-821GE-TNHR",
            "components": [
                {"part": "HGX-H200-8GPU", "quantity": 1},
                {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
            ],
        }
    ],
}


def list_total(config):
    """The design's list total as the BOM service computes it (the pages must show this amount)."""
    result = validate_json(document=config.document)
    total, _ = bom_total(design_bom(parse_design(config.document), result, catalog_snapshot()))
    return total


# A customer's quote-request form as the quote step posts it.
CUSTOMER = {
    "name": "Anna de Vries",
    "company": "Rekenkracht B.V.",
    "email": "anna@example.nl",
    "country": "NL",
    "vat_number": "",
    "street": "Stationsplein 1",
    "postal_code": "3511 ED",
    "city": "Utrecht",
    "action": "request",
}


def url(config, step):
    return reverse("configurator:step", kwargs={"token": config.token, "step": step})


def pdu_on_request(make_config):
    """The four-node cluster from a price list that does not price its PDU: a line on request. Named apart, so no
    validation made against the fully priced catalogue is taken for it."""
    set_price("AP8886")
    return make_config({**H200_CLUSTER, "name": "4 × SYS-821GE-TNHR, PDU on request"})

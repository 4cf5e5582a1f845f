"""The design's optional ``services``: defaults, each line declinable, bad input named by its field."""

import pytest

from configurator.examples import h200_training_cluster
from design.model import DesignInputError, ServicesIn
from engines.intake.parse import parse_design


def _parse(services):
    doc = h200_training_cluster()
    if services is not ...:
        doc["services"] = services
    return parse_design(doc)


def test_absent_or_null_services_get_the_professional_defaults():
    assert _parse(...).services == ServicesIn(support_years=3, installation=True, ai_enterprise=True)
    assert _parse(None).services == ServicesIn()


def test_each_service_can_be_declined():
    s = _parse({"support_years": 0, "installation": False, "ai_enterprise": False}).services
    assert (s.support_years, s.installation, s.ai_enterprise) == (0, False, False)


@pytest.mark.parametrize(
    ("services", "path", "message"),
    [
        ([], "services", "must be an object"),
        ({"support": 3}, "services.support", "unknown key 'support'; use support_years, installation or ai_enterprise"),
        ({"support_years": 6}, "services.support_years", "must be at most 5 years, not 6"),
        ({"support_years": -1}, "services.support_years", "must be at least 0"),
        ({"support_years": 2.5}, "services.support_years", "must be a whole number"),
        ({"installation": "yes"}, "services.installation", "must be true or false, not"),
        ({"ai_enterprise": 1}, "services.ai_enterprise", "must be true or false, not"),
    ],
)
def test_bad_services_name_the_field(services, path, message):
    with pytest.raises(DesignInputError) as e:
        _parse(services)
    assert message in e.value.errors[path]

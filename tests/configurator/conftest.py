from tests.quotes.conftest import build, customer, make_configuration, media  # noqa: F401

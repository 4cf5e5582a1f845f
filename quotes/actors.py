"""Who acts on a quote: a signed-in user, an anonymous visitor (a customer's browser), or nobody (the API's client
without a user, a task)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

# The user of a request as django's auth middleware sets it.
RequestUser = User | AnonymousUser
Actor = User | AnonymousUser | None


def signed_in(user: Actor) -> User | None:
    """The user when signed in, else None (an anonymous visitor, or nobody)."""
    return user if isinstance(user, User) and user.is_authenticated else None

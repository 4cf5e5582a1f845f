"""Fixed-window hit counters in Django's default cache: the wizard's quote-request limits and the API throttles.

``count_hit(key, ttl)`` counts one hit and returns the window's count so far. With Redis (production's shared
cache) that is one round trip: a small script increments the key and, on the first hit, sets its expiry, atomically.
Any other cache uses ``add`` and ``incr`` (per process with the local-memory cache).
"""

from __future__ import annotations

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

_INCR_WITH_EXPIRY = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
"""


def count_hit(key: str, ttl: int) -> int:
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        real_key = backend.make_and_validate_key(key)
        client = backend._cache.get_client(real_key, write=True)
        return int(client.eval(_INCR_WITH_EXPIRY, 1, real_key, int(ttl)))
    if backend.add(key, 1, ttl):
        return 1
    try:
        return backend.incr(key)
    except ValueError:  # expired between add and incr: this hit opens a new window
        backend.add(key, 1, ttl)
        return 1

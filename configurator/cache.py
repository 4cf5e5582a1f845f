"""Django's Redis cache, reusing one client object per connection pool.

Django's backend builds a new ``redis.Redis`` for every cache operation; on this hardware that costs about 60 µs,
more than half of the round trip itself, and an API request makes two. A ``redis.Redis`` is safe to share
between threads (its connection pool hands out the connections), so one per pool is kept.
Configured through CACHE_URL=redis://… (configurator/settings/base.py).
"""

from __future__ import annotations

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient

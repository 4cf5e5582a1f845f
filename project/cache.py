"""Django's Redis cache, with one Redis client per connection pool instead of one per operation.

Django's RedisCacheClient builds a new ``redis.Redis`` for every get, set and add (``get_client``); redis-py
builds its table of some 170 response callbacks in each, about 0.1 ms, which is more than the round trip to a
local Redis. Every API request does three or more cache operations (its client row, each throttle's read and
write), so that is paid on every request. A ``redis.Redis`` is safe to share between threads (each command takes
a connection from the pool), so this backend keeps one per pool. Behaviour is otherwise Django's own: the same
keys, values, timeouts and serialisation, so processes on either backend share one cache.

``CACHE_URL=redis://…`` selects it (project.settings.base).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

if TYPE_CHECKING:
    from redis import ConnectionPool, Redis


class SharedClientRedisCacheClient(RedisCacheClient):
    if TYPE_CHECKING:  # Django's RedisCacheClient sets these; the stubs do not name them
        _pools: dict[int, Any]
        _pool_class: Any
        _servers: list[str]
        _pool_options: dict[str, Any]
        _client: Callable[..., Any]

        def _get_connection_pool_index(self, write: bool) -> int: ...

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Redis] = {}

    def get_client(self, key: str | bytes | memoryview | None = None, *, write: bool = False) -> Redis:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            # Built through the parent so the pool is made as Django makes it; a race builds two, one is kept.
            client = self._clients.setdefault(index, self._client(connection_pool=self._pool_for(index)))
        return client

    def _pool_for(self, index: int) -> ConnectionPool:
        if index not in self._pools:
            self._pools[index] = self._pool_class.from_url(self._servers[index], **self._pool_options)
        return self._pools[index]


class SharedClientRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient

"""A private redis-server for tests that stop, restart or freeze Redis: its own free port and directory, never the
shared one (bench/_machines.py's RedisServer). Skips, or fails under CI, when redis-server is not installed."""

from __future__ import annotations

import os
import shutil

import pytest

from bench._machines import RedisServer
from bench._server import free_port

__all__ = ["RedisServer", "free_port", "private_redis"]


@pytest.fixture
def private_redis(tmp_path):
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but redis-server is not installed")
        pytest.skip("needs redis-server")
    directory = tmp_path / "redis"
    directory.mkdir()
    server = RedisServer(directory)
    server.start()
    try:
        yield server
    finally:
        server.stop()

"""core.ratelimit on the real Redis: windows, peeks, resets, and a Redis that is down."""

import time

from django.test import override_settings

from core import ratelimit, redis_client
from core.ratelimit import Limit


def test_hits_pass_the_limit_after_count():
    limit = Limit("test-count", count=3, seconds=60)
    assert [ratelimit.hit(limit, "k") for _ in range(5)] == [False, False, False, True, True]
    assert ratelimit.hit(limit, "other") is False  # keys are counted apart


def test_exceeded_only_looks():
    limit = Limit("test-peek", count=2, seconds=60)
    assert not ratelimit.exceeded(limit, "k")
    ratelimit.hit(limit, "k")
    assert not ratelimit.exceeded(limit, "k")
    ratelimit.hit(limit, "k")
    assert ratelimit.exceeded(limit, "k")
    assert ratelimit.exceeded(limit, "k")  # looking twice counts nothing


def test_window_expires_and_retry_after():
    limit = Limit("test-window", count=1, seconds=1)
    ratelimit.hit(limit, "k")
    assert ratelimit.hit(limit, "k")
    assert ratelimit.retry_after(limit, "k") == 1
    time.sleep(1.1)
    assert ratelimit.hit(limit, "k") is False


def test_reset_and_odd_keys():
    limit = Limit("test-reset", count=1, seconds=60)
    key = "é" * 1000 + "\x00:*"
    ratelimit.hit(limit, key)
    assert ratelimit.exceeded(limit, key)
    ratelimit.reset(limit, key)
    assert not ratelimit.exceeded(limit, key)


def test_redis_down_allows():
    limit = Limit("test-down", count=0, seconds=60)
    redis_client.client.cache_clear()
    try:
        with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
            assert ratelimit.hit(limit, "k") is False
            assert ratelimit.exceeded(limit, "k") is False
    finally:
        redis_client.client.cache_clear()

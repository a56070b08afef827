"""Bench-only counters inside the web, worker and beat processes (bench.settings loads them), so
a benchmark can tell where a decision's time goes: queries, renders, connections, channel-layer
calls, pushes, requests, garbage collection, per context (``http`` or ``ws``).

GET /__bench__/counters answers them as JSON (with the pid); POST /__bench__/reset zeroes them.
Each counter: docs/bench.md.
"""

import contextvars
import functools
import gc
import json
import os
import threading
import time
from collections import defaultdict

from django.apps import AppConfig
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.http import HttpResponse

_context = contextvars.ContextVar("bench_context", default="ws")
_lock = threading.Lock()
COUNTERS: defaultdict[str, float] = defaultdict(float)


def add(name: str, seconds: float | None = None) -> None:
    key = f"{name}.{_context.get()}"
    with _lock:
        COUNTERS[key] += 1
        if seconds is not None:
            COUNTERS[key + "_s"] += seconds


class BenchPasswordHasher(PBKDF2PasswordHasher):
    """PBKDF2-SHA256 at 1,000 iterations: bench users only (never in musweb.settings)."""

    iterations = 1_000


def _timed_sync(name, function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            add(name, time.perf_counter() - start)

    return wrapper


def _timed_async(name, function):
    @functools.wraps(function)
    async def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return await function(*args, **kwargs)
        finally:
            add(name, time.perf_counter() - start)

    return wrapper


_gc_started: dict[str, float] = {}


def _gc_timed(phase: str, info: dict) -> None:
    """gc.callbacks: each collection and its pause (in whichever thread triggered it)."""
    if phase == "start":
        _gc_started["t"] = time.perf_counter()
    elif "t" in _gc_started:
        seconds = time.perf_counter() - _gc_started.pop("t")
        key = f"gc{info.get('generation')}.{_context.get()}"
        with _lock:
            COUNTERS[key] += 1
            COUNTERS[key + "_s"] += seconds


def install() -> None:
    gc.callbacks.append(_gc_timed)
    from channels_redis.pubsub import RedisPubSubLoopLayer
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.backends.utils import CursorWrapper
    from django.template.backends.django import Template

    from core.channel_layer import ChannelLayer
    from games.display import fragments, shared_regions

    CursorWrapper.execute = _timed_sync("queries", CursorWrapper.execute)
    CursorWrapper.executemany = _timed_sync("queries", CursorWrapper.executemany)
    BaseDatabaseWrapper.connect = _timed_sync("db_connects", BaseDatabaseWrapper.connect)
    Template.render = _timed_sync("renders", Template.render)
    ChannelLayer.group_send_blocking = _timed_sync("group_send", ChannelLayer.group_send_blocking)
    RedisPubSubLoopLayer.group_send = _timed_async("group_send", RedisPubSubLoopLayer.group_send)
    RedisPubSubLoopLayer.send = _timed_async("layer_send", RedisPubSubLoopLayer.send)
    fragments.table_push = _timed_sync("pushes", fragments.table_push)
    # a viewer's table regions: Jinja2 templates, outside the Django backend's Template.render
    shared_regions.render_regions = _timed_sync("renders", shared_regions.render_regions)


class BenchConfig(AppConfig):
    name = "bench"
    label = "bench"
    verbose_name = "Bench counters"

    def ready(self):
        install()


class BenchMiddleware:
    """First in the stack: marks the request's context "http", times it, serves the counters."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path == "/__bench__/counters":
            with _lock:
                body = dict(COUNTERS, pid=os.getpid())
            return HttpResponse(json.dumps(body), content_type="application/json")
        if request.path == "/__bench__/reset":
            with _lock:
                COUNTERS.clear()
            return HttpResponse("ok")
        token = _context.set("http")
        start = time.perf_counter()
        try:
            return self.get_response(request)
        finally:
            add("requests", time.perf_counter() - start)
            _context.reset(token)

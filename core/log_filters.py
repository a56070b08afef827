"""Filters of the site's log handlers (settings.LOGGING)."""

import logging


class SuspiciousRequestWithoutTraceback(logging.Filter):
    """django.security.* records (a forged Host header, a suspicious request) keep their one
    line but lose the traceback Django attaches: any scanner sends them, nothing in our code
    failed, and a traceback per probe would bury the real errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("django.security."):
            record.exc_info = None
            record.exc_text = None
        return True

"""Filters of the site's log handlers (settings.LOGGING)."""

import logging
import re

#: An invitation link's token in a path (games.urls: /tables/<id>/invitation/<token>/), or a
#: private tournament's (tournaments.urls: /tournois/<id>/lien/<token>/).
INVITATION_TOKEN = re.compile(r"(/invitation/|/lien/)[^/\s?#\"']+")


class SuspiciousRequestWithoutTraceback(logging.Filter):
    """django.security.* records (a forged Host header, a suspicious request) keep their one
    line but lose the traceback Django attaches: any scanner sends them, nothing in our code
    failed, and a traceback per probe would bury the real errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("django.security."):
            record.exc_info = None
            record.exc_text = None
        return True


class InvitationTokensHidden(logging.Filter):
    """An invitation link's token is the key to a private table: a log line (« Not Found: »,
    « Too Many Requests: », an error's request path) shows the link's place, never the token.
    HAProxy's access log does the same (deploy.serve's LOGGED_PATH_RULES)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = INVITATION_TOKEN.sub(r"\1...", message)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True

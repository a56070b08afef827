"""The Celery app: Redis broker, configuration from Django settings (CELERY_*)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "musweb.settings")

app = Celery("musweb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

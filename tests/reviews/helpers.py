"""Shared by the reviews' tests: a moderator, and the tasks the site queued, caught."""

from django.contrib.auth.models import Permission


def moderator(make_user, name="modo"):
    modo = make_user(name, is_staff=True)
    modo.user_permissions.add(Permission.objects.get(codename="can_moderate"))
    return modo


class SentTasks:
    """Stands in for the Celery app: records each task sent by name."""

    def __init__(self):
        self.sent: list[tuple[str, tuple]] = []

    def send_task(self, name, args=(), **kwargs):
        self.sent.append((name, tuple(args)))

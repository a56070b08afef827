from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """The site's user, custom from the first migration so it can grow without pain."""

"""Helpers of the log-in and sign-up throttling tests: a cheap hasher that counts its calls."""

from django.contrib.auth.hashers import MD5PasswordHasher


class CountingHasher(MD5PasswordHasher):
    """MD5 (tests only: the real hasher takes a third of a second) counting every hash made."""

    calls = 0

    def encode(self, password, salt):
        CountingHasher.calls += 1
        return super().encode(password, salt)

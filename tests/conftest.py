"""Shared fixtures. Tests run against the real PostgreSQL and Redis (see the README)."""

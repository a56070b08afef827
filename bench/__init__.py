"""`make bench`: the real stack (PostgreSQL, Redis, daphne/uvicorn, Celery worker and beat) driven
by simulated players over HTTP and WebSockets. Entry point: ``python -m bench`` (bench/run.py)."""

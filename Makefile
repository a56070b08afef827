# The two commands of the README: `make run` and `make test`.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# Python >= 3.12: python3.13 / python3.12 on PATH, else pyenv's 3.13 / 3.12.
PYTHON ?= $(shell for c in python3.13 python3.12; do \
	  command -v $$c >/dev/null 2>&1 && $$c -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null && { echo $$c; exit; }; \
	done; \
	for v in $$(ls $$HOME/.pyenv/versions 2>/dev/null | grep -E '^3\.1[2-9]' | sort -rV); do \
	  echo "$$HOME/.pyenv/versions/$$v/bin/python3"; exit; \
	done)

.PHONY: run test install services proxy db lint bench-engine bench bench-topology messages

# The catalogs (locale/README.md, docs/languages.md): French is the source, these are compiled.
LANGS := es eu en
CATALOGS := $(foreach l,$(LANGS),locale/$(l)/LC_MESSAGES/django.mo) locale/eu/LC_MESSAGES/djangojs.mo

$(STAMP): pyproject.toml constraints.txt
	@if [ -z "$(PYTHON)" ]; then echo "Python 3.12 or newer is needed (python3.13/python3.12 or pyenv); none found." >&2; exit 1; fi
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]' -c constraints.txt
	touch $(STAMP)

install: $(STAMP) $(CATALOGS)

# Compiled as compilemessages does (msgfmt --check-format), one file per changed catalog. Basque
# takes the project's translations of the Django strings its own eu catalogs lack
# (contrib-gaps*.po) into the compiled catalog, so they come before Django's.
locale/eu/LC_MESSAGES/django.mo: locale/eu/LC_MESSAGES/django.po locale/eu/contrib-gaps.po
	msgcat --use-first $^ | msgfmt --check-format -o $@ -

locale/eu/LC_MESSAGES/djangojs.mo: locale/eu/contrib-gaps-djangojs.po
	msgfmt --check-format -o $@ $<

locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po
	msgfmt --check-format -o $@ $<

# The marked strings into every catalog: Django's templates and Python, and the Jinja
# {% trans %} blocks (the project's makemessages, games/management/commands/makemessages.py).
messages: install
	$(PY) manage.py makemessages $(foreach l,$(LANGS),-l $(l)) --no-location --ignore=.venv --ignore=staticfiles --ignore=tests
	$(MAKE) install

# Start PostgreSQL and Redis if they are installed but down.
services:
	@bash scripts/ensure-services

# HAProxy in front of the web processes (deploy/serve.py), from Debian if missing.
proxy:
	@bash scripts/ensure-haproxy

db: install services
	@$(PY) scripts/create_database.py

# As production on this machine: DEBUG off unless DEBUG=1, the secret key of .secret_key (made
# on first use), static files collected and served by WhiteNoise; check --deploy tells what
# would not hold (warnings only, so DEBUG=1 make run still starts).
run: db proxy
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py check --deploy
	$(VENV)/bin/honcho start -f Procfile

test: db proxy
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy games/engine games/display games/vocabulary.py tests/presentation/observations.py
	$(PY) -m pytest

lint: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench-engine: install
	$(PY) -m games.engine bench

# Benchmarks of the real stack: own database, own Redis, own ports; QUICK=1 for a short run.
bench: db
	$(PY) -m pip install --quiet -e '.[dev,bench]' -c constraints.txt
	$(PY) -m bench $(if $(QUICK),--quick,)

# Past one machine, on loopback: two machines behind HAProxy, the channel layer over two Redis,
# machine A killed mid-play (docs/capacity.md). Installs haproxy from Debian if missing.
bench-topology: db
	$(PY) -m pip install --quiet -e '.[dev,bench]' -c constraints.txt
	BENCH_DB=$${BENCH_DB:-barajamos_bench_topology} $(PY) -m bench.topology

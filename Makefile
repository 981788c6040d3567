# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# Two stamps: `make run` installs only requirements.lock (what production runs); `make test` adds the
# test tools from requirements-test.lock. Each is redone only when its lock changes.
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
MANAGE := $(PY) manage.py
# Where `make run` serves: `make run PORT=8001` beside another checkout, `HOST=0.0.0.0` for a VM's host.
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test services install install-test setup messages lint lock worker probe-worker beat clean

$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (found %s)" % sys.version.split()[0])'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements.lock
	touch $(STAMP)

$(TEST_STAMP): $(STAMP) requirements-test.lock
	$(PIP) install --quiet -r requirements-test.lock
	touch $(TEST_STAMP)

install: $(STAMP)

install-test: $(TEST_STAMP)

messages: install
	$(MANAGE) compilemessages --ignore=.venv -v 0

setup: messages
	$(MANAGE) migrate --noinput -v 0
	$(MANAGE) update_translation_fields > /dev/null
	$(MANAGE) collectstatic --noinput -v 0
	$(MANAGE) load_demo
	$(MANAGE) ensure_admin

run: setup
	$(MANAGE) runserver $(HOST):$(PORT)

lint: install-test
	$(VENV)/bin/ruff check .

# Starts PostgreSQL and Redis, installs Chromium and gettext when missing (one line each), or says what to do.
services:
	bash scripts/ensure_services.sh

test: services install-test messages
	$(VENV)/bin/ruff check .
	$(VENV)/bin/pytest $(PYTEST_ARGS)

worker: install
	$(VENV)/bin/celery -A config worker -l info

# First-party probes have their own queue (docs/first-party-runs.md); run one per region.
probe-worker: install
	$(VENV)/bin/celery -A config worker -Q probes -l info

beat: install
	$(VENV)/bin/celery -A config beat -l info

# Re-pin every dependency from pyproject.toml (needs the network): the runtime dependencies into
# requirements.lock, then the `test` extra, held to those same pins, into requirements-test.lock.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet --upgrade pip
	.lock-venv/bin/pip install --quiet .
	.lock-venv/bin/pip freeze --exclude-editable | grep -v '^llm-benchmarks-cms' > .lock-venv/runtime.txt
	.lock-venv/bin/pip install --quiet --constraint .lock-venv/runtime.txt ".[test]"
	(echo "# Pinned versions of what production and \`make run\` install. Regenerate with: make lock"; \
	 cat .lock-venv/runtime.txt) > requirements.lock
	(echo "# Pinned test tools, installed on top of requirements.lock by \`make test\`. Regenerate with: make lock"; \
	 echo "-r requirements.lock"; \
	 .lock-venv/bin/pip freeze --exclude-editable | grep -v '^llm-benchmarks-cms' | grep -vxFf .lock-venv/runtime.txt) \
	 > requirements-test.lock
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) db.sqlite3 static

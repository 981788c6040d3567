# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
MANAGE := $(PY) manage.py

.PHONY: run test install setup messages lint lock worker beat clean

$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (found %s)" % sys.version.split()[0])'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements.lock
	touch $(STAMP)

install: $(STAMP)

messages: install
	$(MANAGE) compilemessages --ignore=.venv -v 0

setup: messages
	$(MANAGE) migrate --noinput -v 0
	$(MANAGE) update_translation_fields > /dev/null
	$(MANAGE) collectstatic --noinput -v 0
	$(MANAGE) load_demo
	$(MANAGE) ensure_admin

run: setup
	$(MANAGE) runserver 127.0.0.1:8000

lint: install
	$(VENV)/bin/ruff check .

test: messages
	$(PY) scripts/check_services.py
	$(VENV)/bin/ruff check .
	$(VENV)/bin/pytest $(PYTEST_ARGS)

worker: install
	$(VENV)/bin/celery -A config worker -l info

beat: install
	$(VENV)/bin/celery -A config beat -l info

# Re-pin every dependency from pyproject.toml into requirements.lock (needs the network).
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet --upgrade pip
	.lock-venv/bin/pip install --quiet ".[test]"
	(echo "# Pinned versions of every package; both README commands install from this file."; \
	 echo "# Regenerate with: make lock"; .lock-venv/bin/pip freeze --exclude-editable | grep -v llm-benchmarks-cms) > requirements.lock
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) db.sqlite3 static

# Shortcuts; the source of truth is dev.py (it needs only Python).
.PHONY: run test ci lint lock messages
run:
	python3 dev.py run
test:
	python3 dev.py test
ci:
	bash .ci/run
lint:
	.venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/lint-imports
# The lock files dev.py, CI and the Dockerfile install from: every package pinned with its hashes, resolved for every
# platform and Python from 3.11 on (uv's universal resolution). Run after editing the dependencies in pyproject.toml;
# `.venv/bin/uv pip compile ... --upgrade` (or --upgrade-package NAME) moves the pins within pyproject's bounds.
LOCK = .venv/bin/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes --quiet \
	--custom-compile-command "make lock"
lock:
	$(LOCK) -o requirements/base.txt
	$(LOCK) --extra dev -o requirements/dev.txt
# Translations: Django's makemessages for Python and Django templates (the Jinja2 pages in templates/ left out),
# Babel's Jinja2 extractor for the pages (babel.cfg), one template of both merged into the catalogue of LOCALE.
# LOCALE names the catalogue (default nl): `make messages LOCALE=de` creates or updates the German one.
LOCALE ?= nl
messages:
	.venv/bin/pybabel extract -F babel.cfg -o locale/pages.pot .
	.venv/bin/python manage.py makemessages -l $(LOCALE) --ignore .venv --ignore './templates/*' --keep-pot
	msgcat --use-first locale/django.pot locale/pages.pot -o locale/django.pot
	msgmerge --quiet --update --backup=none --previous locale/$(LOCALE)/LC_MESSAGES/django.po locale/django.pot
	rm -f locale/django.pot locale/pages.pot quotes/locale/django.pot

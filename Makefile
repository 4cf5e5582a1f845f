# Shortcuts; the source of truth is dev.py (it needs only Python).
.PHONY: run test ci lint messages
run:
	python3 dev.py run
test:
	python3 dev.py test
ci:
	bash .ci/run
lint:
	.venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/lint-imports
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

# Shortcuts; the source of truth is dev.py (it needs only Python).
.PHONY: run test ci lint
run:
	python3 dev.py run
test:
	python3 dev.py test
ci:
	bash .ci/run
lint:
	.venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/lint-imports

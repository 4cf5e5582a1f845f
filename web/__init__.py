"""The web door: the wizard's views, forms, page selectors, widgets, step logic and Jinja2 environment.

A door like api/: it parses requests, calls the configuration and quote services and selectors, and renders
the top-level templates/ tree. Nothing below a door imports it (import-linter contracts in pyproject.toml).
"""

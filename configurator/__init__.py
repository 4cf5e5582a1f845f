"""The configurator app: configurations, their services and selectors, the validation pipeline, migrations and
management commands."""

"""Quotes: priced, numbered, revisable offers frozen from a validated design, with PDF and XLSX documents."""

"""Writing a built document to the file storage under its fixed name (the documents' and the order
confirmation's builds share it)."""

from __future__ import annotations

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage


def store(name: str, content: bytes) -> str:
    """Write a file under a fixed name, replacing an earlier build (re-running yields the same names)."""
    if default_storage.exists(name):
        default_storage.delete(name)
    stored = default_storage.save(name, ContentFile(content))
    if stored != name:  # a concurrent builder wrote the same name first: keep one copy
        default_storage.delete(stored)
    return name

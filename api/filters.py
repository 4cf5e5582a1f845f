"""Query filters of the list endpoints."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import django_filters
from django import forms
from django.db.models import Model, Q, QuerySet
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend

from catalog.models import CATEGORY_CHOICES, Lifecycle, Part
from configurator.models import Configuration

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

_M = TypeVar("_M", bound=Model)


class FilterBackend(DjangoFilterBackend):
    """django-filter's backend, which builds the view's FilterSet and its form (deep copies of every filter and
    form field) only when the request names one of its filters. Without one, the FilterSet would filter nothing:
    none of its filters is required, and a filter without a value returns the queryset it is given. A parameter
    is taken as naming a filter when it starts with a filter's name (a range filter reads ``<name>_min``...)."""

    def filter_queryset(self, request: Request, queryset: QuerySet[_M], view: APIView) -> QuerySet[_M]:
        filterset_class = self.get_filterset_class(view, queryset)
        if filterset_class is not None and not names_a_filter(request.query_params, filterset_class):
            return queryset
        return super().filter_queryset(request, queryset, view)


def names_a_filter(parameters: Mapping[str, object], filterset_class: type[django_filters.FilterSet]) -> bool:
    filters = filterset_class.base_filters
    if any(f.extra.get("required") for f in filters.values()):
        return True
    return any(key.startswith(name) for key in parameters for name in filters)


class StrictFilterSet(django_filters.FilterSet):
    """A choice or true/false parameter given with an empty value is a 400, like any other value outside the
    schema's enum (django-filter would ignore it and return everything)."""

    def is_valid(self) -> bool:
        valid = super().is_valid()
        for name, flt in self.filters.items():
            strict = isinstance(flt, django_filters.ChoiceFilter | django_filters.BooleanFilter)
            if strict and self.data.get(name) == "":
                self.form.add_error(name, _("Give one of the listed values, or leave the parameter out."))
                valid = False
        return valid


class _StrictBooleanField(forms.ChoiceField):
    """Only ``true`` or ``false`` (django-filter's own also takes ``null``, ``unknown``, ``1``… and ignores them)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.pop("empty_label", None)
        kwargs.pop("null_label", None)
        super().__init__(*args, choices=[("true", "true"), ("false", "false")], **kwargs)

    def clean(self, value: str | None) -> bool | None:
        value = super().clean(value)
        return None if value in ("", None) else value == "true"


class StrictBooleanFilter(django_filters.BooleanFilter):
    field_class = _StrictBooleanField


class PartFilter(StrictFilterSet):
    category = django_filters.MultipleChoiceFilter(
        choices=CATEGORY_CHOICES, help_text="One or more categories (repeat the parameter)."
    )
    manufacturer = django_filters.CharFilter(lookup_expr="iexact", max_length=64)
    lifecycle = django_filters.ChoiceFilter(choices=Lifecycle.choices)
    q = django_filters.CharFilter(
        method="search", max_length=100, help_text="Text in the part number, name or description (case-insensitive)."
    )
    accepted_by_server = django_filters.CharFilter(
        method="filter_accepted_by_server",
        max_length=64,
        help_text="Parts (GPUs) that the server with this part number accepts.",
    )
    accepts = django_filters.CharFilter(
        method="filter_accepts", max_length=64, help_text="Servers that accept the GPU with this part number."
    )

    class Meta:
        model = Part
        fields = ["category", "manufacturer", "lifecycle"]

    def search(self, queryset: QuerySet[Part], name: str, value: str) -> QuerySet[Part]:
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(
            Q(part_number__icontains=value) | Q(name__icontains=value) | Q(description__icontains=value)
        )

    def filter_accepted_by_server(self, queryset: QuerySet[Part], name: str, value: str) -> QuerySet[Part]:
        return queryset.filter(accepted_by__part__part_number=value).distinct()

    def filter_accepts(self, queryset: QuerySet[Part], name: str, value: str) -> QuerySet[Part]:
        return queryset.filter(server__accepts__part_number=value).distinct()


class ConfigurationFilter(StrictFilterSet):
    crm_reference = django_filters.CharFilter(max_length=100, help_text="Exact CRM reference.")
    status = django_filters.ChoiceFilter(choices=Configuration.Status.choices)
    valid = StrictBooleanFilter(help_text="true or false.")

    class Meta:
        model = Configuration
        fields = ["crm_reference", "status", "valid"]

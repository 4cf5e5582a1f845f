"""Query filters of the list endpoints."""

from __future__ import annotations

import django_filters
from django.db.models import Q

from catalog.models import CATEGORY_CHOICES, Lifecycle, Part
from configurator.models import Configuration


class PartFilter(django_filters.FilterSet):
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

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(
            Q(part_number__icontains=value) | Q(name__icontains=value) | Q(description__icontains=value)
        )

    def filter_accepted_by_server(self, queryset, name, value):
        return queryset.filter(accepted_by__part__part_number=value).distinct()

    def filter_accepts(self, queryset, name, value):
        return queryset.filter(server__accepts__part_number=value).distinct()


class ConfigurationFilter(django_filters.FilterSet):
    crm_reference = django_filters.CharFilter(max_length=100, help_text="Exact CRM reference.")
    status = django_filters.ChoiceFilter(choices=Configuration.Status.choices)
    valid = django_filters.BooleanFilter()

    class Meta:
        model = Configuration
        fields = ["crm_reference", "status", "valid"]

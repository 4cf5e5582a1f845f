from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from django.core.paginator import Page
from django.core.paginator import Paginator as DjangoPaginator
from django.db import connections
from django.db.models import Count, Model, QuerySet, Window
from django.db.models.query import ModelIterable, ValuesIterable
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination

from .prepared import TOTAL as _TOTAL  # the annotation that carries the count on each row of the page
from .prepared import PreparedRows

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

# The largest OFFSET + LIMIT a database integer holds (PostgreSQL's bigint, SQLite's INTEGER): a page beyond it is
# past the end of any table, and is left to Django's way (count first, then 404) instead of reaching the database.
_LARGEST_ROW = 2**63 - 1

_Row = TypeVar("_Row")  # a page's row: a model instance, or a dict of values()


class CountingPaginator(DjangoPaginator):
    """Django's paginator, counting the rows in the page's own query (``COUNT(*) OVER ()``, computed before the
    page's LIMIT) instead of a query of its own: one query for a page where there were two. The same page (model
    instances, or the dicts of ``values()``, without the count) and the same count; a page that comes back empty
    (past the end, or no rows at all), a query a window cannot count (DISTINCT, GROUP BY, a union, a slice) and a
    database without window functions go Django's way, count query first."""

    def page(self, number: int | float | str) -> Page[Any]:  # a float as Django's validate_number takes it
        if "count" not in self.__dict__ and self.orphans == 0 and self._countable():
            try:
                wanted = int(number)
            except (TypeError, ValueError):
                wanted = 0
            bottom = (wanted - 1) * self.per_page
            in_range = wanted >= 1 and bottom + self.per_page <= _LARGEST_ROW
            if in_range and not (isinstance(number, float) and not number.is_integer()):
                if isinstance(self.object_list, PreparedRows):  # its SQL compiled once (api.prepared)
                    rows = self.object_list.page(bottom, self.per_page)
                else:
                    assert isinstance(self.object_list, QuerySet)  # _countable
                    counted = self.object_list.annotate(**{_TOTAL: Window(Count("*"))})
                    rows = list(counted[bottom : bottom + self.per_page])
                if rows:
                    self.count = rows[0][_TOTAL] if isinstance(rows[0], dict) else getattr(rows[0], _TOTAL)
                    for row in rows:  # the page's rows as they would be without the count
                        del (row if isinstance(row, dict) else row.__dict__)[_TOTAL]
                    # Django's own page factory (Paginator._get_page), not in the stubs
                    return self._get_page(rows, self.validate_number(number), self)  # type: ignore[attr-defined]
        return super().page(number)  # type: ignore[arg-type]  # Django validates a float; the stub omits it

    def _countable(self) -> bool:
        queryset = self.object_list
        if isinstance(queryset, PreparedRows):
            return connections[queryset.db].features.supports_over_clause
        if not isinstance(queryset, QuerySet) or queryset._iterable_class not in (ModelIterable, ValuesIterable):
            return False  # rows as model instances or dicts, not tuples
        query = queryset.query
        if query.distinct or query.combinator or query.is_sliced or query.group_by is not None:
            return False
        return connections[queryset.db].features.supports_over_clause


class Pagination(PageNumberPagination):
    """``?page=N`` and ``?page_size=`` (1 to 200). A page past the end is a 404; a ``page_size`` that is not a
    whole number from 1 to 200 is a 400, as the schema says (it is not silently replaced by the default)."""

    django_paginator_class = CountingPaginator
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int | None:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not raw.isdigit() or not 1 <= int(raw) <= self.max_page_size:
            raise ValidationError(
                {self.page_size_query_param: [_("Use a whole number from 1 to %(max)d.") % {"max": self.max_page_size}]}
            )
        return int(raw)

    def paginate_queryset(
        self, queryset: QuerySet[Model, _Row] | Sequence[_Row], request: Request, view: APIView | None = None
    ) -> list[_Row] | None:
        page = request.query_params.get(self.page_query_param)
        if page is not None and not page.isdigit():
            raise ValidationError({self.page_query_param: [_("Use a page number from 1.")]})
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
            elif parameter["name"] == self.page_query_param:
                parameter["schema"].update(minimum=1)
        return parameters

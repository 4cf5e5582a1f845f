"""A list query whose SQL is compiled once per process and database, and run for each page with its owner and its
page's bounds as parameters.

Building a page's queryset (the owner's filter and its join, the listed columns, the count's window) and
compiling it to SQL took a quarter of a configuration list page's time, each request anew, for the same SQL every
time but for three numbers. ``PreparedList`` asks the ORM once: it builds the queryset for an owner that no row
has, compiles it, finds that owner's place among the query's parameters and appends ``LIMIT %s OFFSET %s``. A page
then runs that SQL with the owner and the page's bounds, and converts the columns as the ORM's values() would
(the database's converters, run with the connection of the thread that reads).

``rows(owner, database=...)`` gives what the paginator (api.pagination.CountingPaginator) reads a page from:
``page(offset, limit)`` runs the prepared SQL; anything else (counting, slicing) goes to the queryset itself, made
on first use. The view hands it over only when the request names no filter: a filtered list is the ORM's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC
from typing import TYPE_CHECKING, Any

from django.db import connections

if TYPE_CHECKING:
    import psycopg
    from psycopg.abc import Loader
from django.db.models import Count, Model, QuerySet, Window

# An owner id no row has (ids are positive): its place among the compiled parameters is where each page's goes.
_NO_OWNER = -(2**62) - 7
TOTAL = "page_rows_counted"  # the annotation that carries the count of all rows on each row of a page


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    owner_at: int
    names: tuple[str, ...]
    converters: tuple[tuple[int, tuple[Callable, ...], Any], ...]  # column, its converters, its expression


class PreparedList:
    """``build(owner_pk)``: the list's queryset of dicts (``values()``) of ``model`` for one owner, ordered,
    unsliced."""

    def __init__(self, model: type[Model], build: Callable[[int], QuerySet]) -> None:
        self.model = model
        self._build = build
        self._compiled: dict[str, _Compiled] = {}

    def rows(self, owner_pk: int, *, database: str) -> PreparedRows:
        return PreparedRows(self, owner_pk, database)

    def queryset(self, owner_pk: int) -> QuerySet:
        return self._build(owner_pk)

    def page(self, owner_pk: int, database: str, offset: int, limit: int) -> list[dict[str, Any]]:
        """The rows ``offset`` .. ``offset + limit`` of the owner's list, each with the count of all as TOTAL."""
        compiled = self._compiled.get(database) or self._compile(database)
        params = list(compiled.params)
        params[compiled.owner_at] = owner_pk
        connection = connections[database]
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql" and connection.timezone is UTC:
                _compiled_time_stamps(cursor.cursor)
            cursor.execute(compiled.sql, [*params, limit, offset])
            fetched = cursor.fetchall()
        names = compiled.names
        if not compiled.converters:
            return [dict(zip(names, row, strict=True)) for row in fetched]
        rows = []
        for row in fetched:
            values = list(row)
            for position, converters, expression in compiled.converters:
                for converter in converters:
                    values[position] = converter(values[position], expression, connection)
            rows.append(dict(zip(names, values, strict=True)))
        return rows

    def _compile(self, database: str) -> _Compiled:
        queryset = self._build(_NO_OWNER).annotate(**{TOTAL: Window(Count("*"))})
        query = queryset.query
        compiler = query.get_compiler(using=database)
        sql, params = compiler.as_sql()
        places = [i for i, param in enumerate(params) if param == _NO_OWNER]
        if len(places) != 1:  # the owner must be exactly one parameter of the compiled query
            raise ValueError(f"the list's owner is {len(places)} parameters of its query, not one")
        fields = [selected[0] for selected in compiler.select[: compiler.col_count]]
        converters = tuple(
            (position, tuple(convs), expression)
            for position, (convs, expression) in compiler.get_converters(fields).items()
        )
        names = (*query.extra_select, *query.values_select, *query.annotation_select)
        if len(names) != len(fields):
            raise ValueError("the list's columns are not those of its query")
        compiled = _Compiled(f"{sql} LIMIT %s OFFSET %s", tuple(params), places[0], names, converters)
        self._compiled[database] = compiled
        return compiled


def _compiled_time_stamps(cursor: psycopg.Cursor[Any]) -> None:
    """Time stamps read by psycopg's own compiled loader on this psycopg ``cursor``, not Django's, which parses each
    in Python (nine tenths of a 50-row page's fetch: 0.47 of 0.52 ms) to set the connection's time zone: in UTC,
    as Django's session is when USE_TZ is on, psycopg's gives the same aware UTC times."""
    import psycopg
    from psycopg.pq import Format

    global _TIMESTAMPTZ_LOADER
    if _TIMESTAMPTZ_LOADER is None:
        _TIMESTAMPTZ_LOADER = psycopg.adapters.get_loader(psycopg.adapters.types["timestamptz"].oid, Format.TEXT)
    # psycopg always has a timestamptz loader; get_loader's Optional is for types without one.
    cursor.adapters.register_loader("timestamptz", _TIMESTAMPTZ_LOADER)  # type: ignore[arg-type]


_TIMESTAMPTZ_LOADER: type[Loader] | None = None


class PreparedRows:
    """One owner's list, as the paginator reads it: ``page`` by the prepared SQL, anything else by the queryset."""

    ordered = True  # ordered by its queryset (Django's paginator asks)

    def __init__(self, prepared: PreparedList, owner_pk: int, database: str) -> None:
        self.prepared = prepared
        self.owner_pk = owner_pk
        self.db = database
        self._queryset: QuerySet | None = None

    @property
    def queryset(self) -> QuerySet:
        if self._queryset is None:
            self._queryset = self.prepared.queryset(self.owner_pk)
        return self._queryset

    @property
    def model(self) -> type[Model]:
        return self.prepared.model

    def page(self, offset: int, limit: int) -> list[dict[str, Any]]:
        return self.prepared.page(self.owner_pk, self.db, offset, limit)

    def count(self) -> int:
        return self.queryset.count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: int | slice) -> Model | QuerySet[Model]:
        return self.queryset[index]

    def __iter__(self) -> Iterator[Model]:
        return iter(self.queryset)

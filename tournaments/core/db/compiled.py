"""The hand path's statements, compiled once per database connection instead of per call.

A hand is a handful of statements (lock the match, read its entries, insert the entry,
update the match, at a match's end the seats), and Django spends far longer building each
statement's SQL than the database spends running it: about 2.5 ms of a 4.4 ms hand on
SQLite, measured by ``bench/core.py`` (docs/history/performance.md §9). Each statement here is
built by the ORM the first time (so its SQL, its column order and its converters are
Django's own) and then only executed, with new parameters.

``CompiledSelect`` compiles a query built from sentinel arguments and remembers where each
sentinel went among the parameters; ``insert``, ``update`` and ``update_many`` write the
columns named, as ``Model.save()`` would (no signals are involved: the project has none,
docs/architecture rule 4), converting each value with the field's own ``get_db_prep_save``.
``PreparedRows`` does the same for an import's thousands of rows: converted once before
the write transaction, inserted with one ``executemany`` inside it.

Statement building is the database layer's, not a command's (it locks nothing and decides
nothing): ``replay.py`` reads a match's entries through it as the services do, so it sits
beside ``models.py`` below both.
"""

from __future__ import annotations

import inspect
import json
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar, cast

from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import Model, QuerySet, signals
from django.db.models.base import ModelState
from django.db.models.expressions import RawSQL
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query import get_related_populators
from django.db.models.query_utils import DeferredAttribute

M = TypeVar("M", bound=Model)

# Distinct values no row has, within every integer column's range (Django checks it): a
# sentinel is found among a compiled query's parameters by equality, so it must not equal
# any constant the query carries.
_SENTINELS = tuple(2_147_400_001 + i for i in range(8))


class _Plan:
    """What executing one compiled SELECT needs: its SQL, where the arguments go among its
    parameters, and how a row becomes model instances (as ``ModelIterable`` does it)."""

    def __init__(self, queryset: QuerySet[Any], arity: int) -> None:
        db = queryset.db
        compiler = queryset.query.get_compiler(using=db)
        sql, params = compiler.as_sql()
        self.sql = sql
        self.locking = queryset.query.select_for_update
        self.params = list(params)
        self.slots = [
            (i, _SENTINELS.index(p))
            for i, p in enumerate(self.params)
            if isinstance(p, int) and p in _SENTINELS[:arity]
        ]
        self.db = db
        self.fields = [s[0] for s in compiler.select[0 : compiler.col_count]]
        self.converters = compiler.get_converters(self.fields)
        self.compiler = compiler
        klass_info = compiler.klass_info
        assert klass_info is not None
        self.model = klass_info["model"]
        select_fields = klass_info["select_fields"]
        self.start, self.end = select_fields[0], select_fields[-1] + 1
        self.init_list = [f[0].target.attname for f in compiler.select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, compiler.select, db)  # type: ignore[call-arg]  # the stubs are Django 6's
        self.annotations = dict(compiler.annotation_col_map or {})
        self.plain = _plain_instances(self.model, self.init_list)

    def run(self, conn: BaseDatabaseWrapper, args: Sequence[Any]) -> list[Any]:
        params = list(self.params)
        for i, a in self.slots:
            params[i] = args[a]
        if self.locking and conn.features.has_select_for_update and conn.get_autocommit():
            # What Django itself refuses: a row lock outside a transaction holds nothing.
            raise transaction.TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        with prepared_cursor(conn) as cursor:
            cursor.execute(self.sql, params)
            rows: Iterable[Any] = cursor.fetchall()
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        objs = []
        model, db, names, plain = self.model, self.db, self.init_list, self.plain
        populators = self.populators
        for row in rows:
            values = row[self.start : self.end]
            obj = _instance(model, db, names, values) if plain else model.from_db(db, names, values)
            for populator in populators:
                _populate(populator, row, obj)
            for name, position in self.annotations.items():
                setattr(obj, name, row[position])
            objs.append(obj)
        return objs


def _plain_instances(model: type[Model], names: Sequence[str]) -> bool:
    """Whether ``model.from_db`` with every column (``names``, in the model's order) does
    no more than set each attribute and the instance's state: no ``__init__`` or
    ``from_db`` of its own, no receiver of ``pre_init`` or ``post_init``, and no field
    whose attribute does more on assignment than a fresh instance's ``__dict__`` shows.
    """
    fields = model._meta.concrete_fields
    return (
        model.__init__ is Model.__init__
        and getattr(model.from_db, "__func__", None) is getattr(Model.from_db, "__func__", 0)
        and not signals.pre_init.has_listeners(model)
        and not signals.post_init.has_listeners(model)
        and list(names) == [f.attname for f in fields]
        and all(
            type(inspect.getattr_static(model, f.attname, None))
            in (DeferredAttribute, ForeignKeyDeferredAttribute)
            for f in fields
        )
    )


def _instance(model: type[M], db: str, names: Sequence[str], values: Sequence[Any]) -> M:
    """``model.from_db(db, names, values)`` for a model ``_plain_instances`` accepts: the
    same attributes and state, without ``Model.__init__``'s general path (a tenth of the
    hand path's CPU went to building the match's entries)."""
    obj = model.__new__(model)
    state = obj._state = ModelState()
    state.adding = False
    state.db = db
    obj.__dict__.update(zip(names, values, strict=True))
    return obj


def _populate(populator: Any, row: Sequence[Any], from_obj: Model) -> None:
    """``RelatedPopulator.populate`` (a ``select_related`` object from its columns of the
    row), building a model ``_plain_instances`` accepts as ``_instance`` does: the lock's
    round and tournament went through ``Model.__init__``, a twentieth of a simulated
    event's time."""
    plain = getattr(populator, "snowman_plain", None)
    if plain is None:
        plain = populator.reorder_for_init is None and _plain_instances(
            populator.model_cls, populator.init_list
        )
        populator.snowman_plain = plain
    if not plain:
        populator.populate(row, from_obj)
        return
    values = row[populator.cols_start : populator.cols_end]
    if values[populator.pk_idx] is None:
        obj = None
    else:
        obj = _instance(populator.model_cls, populator.db, populator.init_list, values)
        for related in populator.related_populators:
            _populate(related, row, obj)
    populator.local_setter(from_obj, obj)
    if obj is not None:
        populator.remote_setter(obj, from_obj)


@contextmanager
def prepared_cursor(conn: BaseDatabaseWrapper | None = None) -> Iterator[CursorWrapper]:
    """A cursor for the statements run on every hand and every poll: on PostgreSQL its
    parameters are bound by the server, so a statement's text is the same on every call
    and psycopg prepares it on the connection at its first run (settings'
    ``prepare_threshold``); later runs skip parsing and planning. Elsewhere, and for every
    other statement, Django's own cursor (parameters bound on the client, never prepared).

    Planning the phones' version statement cost PostgreSQL 0.84 ms a poll against 0.21 ms
    of running it (docs/history/performance.md §9.11); binding every statement server-side made
    the rest slower, so only these are (§9.12 there). Queries are logged and counted as on any
    cursor.
    """
    conn = conn if conn is not None else connections[DEFAULT_DB_ALIAS]
    if conn.vendor != "postgresql":
        with conn.cursor() as cursor:
            yield cursor
        return
    from django.db.backends.postgresql.base import ServerBindingCursor

    # django-stubs types these for Django's own wrapper only.
    binding: Any = ServerBindingCursor
    # What conn.cursor() does, with the server-binding cursor class.
    conn.close_if_health_check_failed()
    conn.ensure_connection()
    conn.validate_thread_sharing()
    with conn.wrap_database_errors:
        raw = binding(conn.connection)
    wrapped = _LoggedPrepared(raw, conn) if conn.queries_logged else conn.make_cursor(raw)
    with wrapped as cursor:
        yield cursor


class _LoggedPrepared(CursorDebugWrapper):
    """Django's query log takes a statement's text from the client-binding cursor that
    sent it; a prepared statement leaves none there, so it is logged as Django logs a
    server-binding connection's: the statement with its parameters filled in."""

    def execute(self, sql: Any, params: Any = None) -> Any:
        try:
            shown = self.db.ops.compose_sql(sql, params)
        except Exception:  # a parameter psycopg cannot show: the statement alone
            shown = sql
        with self.debug_sql(shown, params):
            return CursorWrapper.execute(self, sql, params)


class CompiledSelect(Generic[M]):
    """A SELECT built by ``build`` from its arguments (integers: ids, tables), compiled
    once per connection and variant, then executed with the arguments of each call."""

    def __init__(self, build: Callable[..., QuerySet[M]]) -> None:
        self.build = build
        self._plans: weakref.WeakKeyDictionary[BaseDatabaseWrapper, dict[Any, _Plan]] = (
            weakref.WeakKeyDictionary()
        )

    def __call__(self, *args: int, variant: Any = None, **shape: Any) -> list[M]:
        """The rows for ``args``; ``shape`` (with ``variant`` its hashable key) is passed
        to ``build`` as is and must not vary within a variant."""
        conn = _conn()
        plans = self._plans.setdefault(conn, {})
        plan = plans.get(variant)
        if plan is None:
            plan = _Plan(self.build(*_SENTINELS[: len(args)], **shape), len(args))
            plans[variant] = plan
        return plan.run(conn, args)


class CompiledWithChildren(Generic[M]):
    """A ``CompiledSelect`` of one row (the first of ``build``'s rows) that also reads the
    row's children in the same statement: ``(parent, children)`` costs one statement
    where it cost two (the match locked with its entries).

    The children come as one more column of the parent's row, a JSON array of arrays
    built by the database (a correlated subquery through the reverse relation
    ``relation``), so that the parent's columns are read and converted once; a LEFT JOIN
    repeated them on every child's row, and was no cheaper than two statements on SQLite
    (docs/history/performance.md §9.7). Each child column is converted back as the ORM reads it
    (``_child_value``); the children come in no particular order.
    """

    COLUMN = "compiled_children"

    def __init__(self, build: Callable[..., QuerySet[M]], relation: str) -> None:
        self.relation = relation
        self.build = build
        self._plans: weakref.WeakKeyDictionary[BaseDatabaseWrapper, dict[Any, _Children]] = (
            weakref.WeakKeyDictionary()
        )

    def __call__(self, *args: int, variant: Any = None, **shape: Any) -> tuple[M, list[Any]] | None:
        """The row for ``args`` and its children, None when there is no row."""
        conn = _conn()
        plans = self._plans.setdefault(conn, {})
        plan = plans.get(variant)
        if plan is None:
            queryset = self.build(*_SENTINELS[: len(args)], **shape)
            relation = queryset.model._meta.get_field(self.relation)
            assert isinstance(relation, models.ForeignObjectRel)  # a reverse relation
            child = relation.related_model
            assert isinstance(child, type)
            children = _Children(conn, queryset.model, child, relation.field)
            queryset = queryset.annotate(
                **{self.COLUMN: RawSQL(children.sql, (), output_field=models.TextField())}
            )
            children.plan = _Plan(queryset, len(args))
            plans[variant] = plan = children
        return plan.run(conn, args)


def _child_value(kind: str, value: Any) -> Any:
    """A column's value as JSON gives it back, as the ORM reads it: booleans (SQLite's
    JSON has 0 and 1) and aware datetimes (SQLite's text in UTC, PostgreSQL's ISO 8601
    with its offset)."""
    if value is None:
        return None
    if kind == "bool":
        return bool(value)
    if kind == "datetime":
        parsed = datetime.fromisoformat(value)
        return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)
    return value


class _Children:
    """How a ``CompiledWithChildren`` statement's row becomes the parent and its children:
    the subquery's SQL, and each child column's conversion."""

    plan: _Plan

    def __init__(
        self, conn: BaseDatabaseWrapper, parent: type[Model], child: type[Model], fk: Any
    ) -> None:
        qn = conn.ops.quote_name
        self.model = child
        fields = list(child._meta.concrete_fields)
        self.names = [f.attname for f in fields]
        self.fk_index = fields.index(fk)
        self.kinds: list[str] = []
        for f in fields:
            if isinstance(f, models.DateTimeField):
                self.kinds.append("datetime")
            elif isinstance(f, models.BooleanField):
                self.kinds.append("bool")
            elif isinstance(
                f, models.IntegerField | models.CharField | models.TextField | models.ForeignKey
            ):
                self.kinds.append("")
            else:
                raise TypeError(f"{child.__name__}.{f.name}: no JSON conversion known")
        columns = ", ".join(f"c.{qn(str(f.column))}" for f in fields if f is not fk)
        outer = f"{qn(str(parent._meta.db_table))}.{qn(str(parent._meta.pk.column))}"
        where = f"FROM {qn(str(child._meta.db_table))} c WHERE c.{qn(str(fk.column))} = {outer}"
        if conn.vendor == "postgresql":
            self.sql = (
                f"(SELECT COALESCE(json_agg(json_build_array({columns})), '[]')::text {where})"
            )
        elif conn.vendor == "sqlite":
            self.sql = f"(SELECT json_group_array(json_array({columns})) {where})"
        else:
            raise NotImplementedError(conn.vendor)
        self.plain = _plain_instances(child, self.names)

    def run(self, conn: BaseDatabaseWrapper, args: Sequence[Any]) -> tuple[Any, list[Any]] | None:
        found = self.plan.run(conn, args)
        if not found:
            return None
        parent = found[0]
        values = json.loads(vars(parent).pop(CompiledWithChildren.COLUMN))
        model, db, names, kinds = self.model, self.plan.db, self.names, self.kinds
        at, key, plain = self.fk_index, parent.pk, self.plain
        children = []
        for row in values:
            row.insert(at, key)
            converted = [_child_value(k, v) if k else v for k, v in zip(kinds, row, strict=True)]
            children.append(
                _instance(model, db, names, converted)
                if plain
                else model.from_db(db, names, converted)
            )
        return parent, children


def _conn() -> BaseDatabaseWrapper:
    # The thread's own connection object (the cache is kept per connection, as Django's
    # compiled SQL and converters are).
    return connections[DEFAULT_DB_ALIAS]


class _Write:
    """One write statement of a model's named columns, and how each value is converted."""

    def __init__(self, conn: BaseDatabaseWrapper, fields: list[Any], sql: str) -> None:
        self.fields = fields
        self.sql = sql
        self.preps = [(f.attname, f, *_passes_through(f, conn)) for f in fields]

    def values(self, obj: Model, conn: BaseDatabaseWrapper) -> list[Any]:
        values = []
        for attname, field, kind, exact in self.preps:
            value = getattr(obj, attname)
            if kind is None or not (
                value is None or (type(value) is kind if exact else isinstance(value, kind))
            ):
                value = field.get_db_prep_save(value, conn)
            values.append(value)
        return values


_writes: weakref.WeakKeyDictionary[BaseDatabaseWrapper, dict[Any, _Write]] = (
    weakref.WeakKeyDictionary()
)


def _write(
    conn: BaseDatabaseWrapper,
    key: tuple[Any, ...],
    fields: Callable[[], list[Any]],
    make: Callable[[list[Any]], str],
) -> _Write:
    cache = _writes.setdefault(conn, {})
    write = cache.get(key)
    if write is None:
        chosen = fields()
        write = cache[key] = _Write(conn, chosen, make(chosen))
    return write


# Fields whose ``get_db_prep_save`` gives back unchanged a value of these types (and
# None): Django's own integer, text and boolean fields, unless the backend adapts
# integers (psycopg 3 wraps them in its own types). Integers and booleans must be exactly
# of the type (a bool is an int, an int no bool); text of any str (a choice's enum member
# is one, and ``CharField.to_python`` keeps it as it is). A hand's writes convert about
# fifty values, and the calls were a tenth of the hand path's CPU.
_PLAIN: dict[type[Any], type[Any]] = {
    models.IntegerField: int,
    models.PositiveIntegerField: int,
    models.PositiveSmallIntegerField: int,
    models.SmallIntegerField: int,
    models.BigIntegerField: int,
    models.CharField: str,
    models.TextField: str,
    models.BooleanField: bool,
}


def _passes_through(field: Any, conn: BaseDatabaseWrapper) -> tuple[type[Any] | None, bool]:
    """The type of value (and whether exactly that type) that ``field.get_db_prep_save``
    returns unchanged on ``conn``, None too; (None, _) when no value is sure to."""
    kind = _PLAIN.get(type(field))
    adapts = type(conn.ops).adapt_integerfield_value is not (
        BaseDatabaseOperations.adapt_integerfield_value
    )
    if kind is int and adapts:
        kind = None
    return kind, kind is not str


def update(obj: Model, names: Sequence[str] | None = None) -> None:
    """``obj.save(update_fields=names)`` (every concrete column but the key when None),
    as one precompiled UPDATE."""
    update_many([obj], names)


def update_many(objs: Sequence[Model], names: Sequence[str] | None = None) -> None:
    """Each of ``objs`` (of one model) written as ``update`` does, in one executemany."""
    if not objs:
        return
    conn = _conn()
    meta = objs[0]._meta
    qn = conn.ops.quote_name
    table, key = str(meta.db_table), str(meta.pk.column)

    def fields() -> list[Any]:
        return [
            f
            for f in meta.concrete_fields
            if not f.primary_key and (names is None or f.name in names or f.attname in names)
        ]

    def make(fields: list[Any]) -> str:
        sets = ", ".join(f"{qn(str(f.column))} = %s" for f in fields)
        return f"UPDATE {qn(table)} SET {sets} WHERE {qn(key)} = %s"

    write = _write(conn, ("update", meta.label, tuple(names or ())), fields, make)
    rows = [[*write.values(o, conn), o.pk] for o in objs]
    with prepared_cursor(conn) as cursor:
        if len(rows) == 1:
            cursor.execute(write.sql, rows[0])
        else:
            cursor.executemany(write.sql, rows)


def update_if_null(obj: Model, name: str) -> int:
    """``Model.objects.filter(pk=obj.pk, <name>__isnull=True).update(<name>=value)`` as
    one precompiled UPDATE: write a fact only if nobody wrote it first. Returns the number
    of rows written (0 or 1)."""
    conn = _conn()
    meta = obj._meta
    qn = conn.ops.quote_name
    table, key = str(meta.db_table), str(meta.pk.column)

    def fields() -> list[Any]:
        return [meta.get_field(name)]

    def make(fields: list[Any]) -> str:
        column = qn(str(fields[0].column))
        return f"UPDATE {qn(table)} SET {column} = %s WHERE {qn(key)} = %s AND {column} IS NULL"

    write = _write(conn, ("update if null", meta.label, name), fields, make)
    with prepared_cursor(conn) as cursor:
        cursor.execute(write.sql, [*write.values(obj, conn), obj.pk])
        return int(cursor.rowcount)


def insert(obj: Model) -> None:
    """``obj.save()`` for a new row: one precompiled INSERT of every concrete column but
    the key, which the database gives and ``obj`` takes."""
    insert_many([obj])


def insert_many(objs: Sequence[Model]) -> None:
    """``insert`` for each of ``objs`` (new rows of one model) in one multi-row INSERT,
    precompiled for each number of rows; each object takes the key the database gives."""
    if not objs:
        return
    conn = _conn()
    meta = objs[0]._meta
    qn = conn.ops.quote_name
    table, key = str(meta.db_table), str(meta.pk.column)
    returning = conn.features.can_return_rows_from_bulk_insert

    def fields() -> list[Any]:
        return [f for f in meta.concrete_fields if not f.primary_key]

    def make(fields: list[Any]) -> str:
        columns = ", ".join(qn(str(f.column)) for f in fields)
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        tail = f" RETURNING {qn(key)}" if returning else ""
        return f"INSERT INTO {qn(table)} ({columns}) VALUES {', '.join([row] * len(objs))}{tail}"

    write = _write(conn, ("insert", meta.label, len(objs)), fields, make)
    # What ``save()`` does for a new row: an auto_now_add field takes its value.
    stamped = [
        f
        for f in write.fields
        if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)
    ]
    values = []
    for obj in objs:
        for f in stamped:
            f.pre_save(obj, add=True)
        values += write.values(obj, conn)
    with prepared_cursor(conn) as cursor:
        cursor.execute(write.sql, values)
        if returning:
            keys = [row[0] for row in cursor.fetchall()]
        else:  # one row's key is known without RETURNING; several rows' are not
            keys = [cursor.lastrowid if len(objs) == 1 else None] * len(objs)
    for obj, pk in zip(objs, keys, strict=True):
        if pk is not None:
            obj.pk = pk
            obj._state.adding = False
            obj._state.db = conn.alias


class PreparedRows:
    """Rows of one model prepared for the database before the write transaction: every
    column's value converted once, outside the lock. Inside, only the parents' new ids
    are filled in and the rows go in with one ``executemany`` (a 3,000-player file has
    45,000 hands; ``bulk_create`` spent 15 s of the writer lock converting them)."""

    def __init__(self, model: type[models.Model], objs: Sequence[models.Model]) -> None:
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        self.objs = objs
        self.parents = [(i, f) for i, f in enumerate(fields) if f.is_relation]
        quote = connection.ops.quote_name
        columns = ", ".join(quote(cast(str, f.column)) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        table = quote(model._meta.db_table)
        self.sql = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
        self.rows = [
            [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields] for obj in objs
        ]

    def run(self) -> None:
        for obj, row in zip(self.objs, self.rows, strict=True):
            for i, parent in self.parents:
                # The parent was inserted first (bulk_create gave it its id).
                related = getattr(obj, parent.name)
                if related is not None:
                    row[i] = related.pk
        with connection.cursor() as cursor:
            for start in range(0, len(self.rows), 5000):
                cursor.executemany(self.sql, self.rows[start : start + 5000])

"""The two database engines the warehouse is built on: the core connection classes plus
the loader's DDL, data loading, views, grants and bookkeeping."""

from core.databases.base import Connection
from core.databases.urls import WarehouseUrl

from .base import META_TABLE, Engine, Meta
from .mysql import MySQLEngine
from .postgres import PostgresEngine


def engine_for(url: WarehouseUrl) -> Engine:
    return MySQLEngine() if url.engine == "mysql" else PostgresEngine()


__all__ = ["META_TABLE", "Connection", "Engine", "Meta", "engine_for"]

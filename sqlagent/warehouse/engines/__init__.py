"""The two database engines the warehouse runs on."""

from ..urls import WarehouseUrl
from .base import META_TABLE, Connection, Engine, Meta, Scope
from .mysql import MySQLEngine
from .postgres import PostgresEngine


def engine_for(url: WarehouseUrl) -> Engine:
    return MySQLEngine() if url.engine == "mysql" else PostgresEngine()


__all__ = ["META_TABLE", "Connection", "Engine", "Meta", "Scope", "engine_for"]

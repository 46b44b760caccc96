"""Database URLs such as `mysql://root@127.0.0.1:3306/switchboard_warehouse`, parsed once
into the parts a driver connects with."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal
from urllib.parse import parse_qs, unquote, urlencode, urlsplit, urlunsplit

Dialect = Literal["mysql", "postgres"]

# The scheme without any driver suffix ("mysql+pymysql" is "mysql") -> its dialect: one
# table for every place that turns a URL into the SQL dialect it speaks.
URL_SCHEMES: dict[str, Dialect] = {
    "mysql": "mysql",
    "mariadb": "mysql",
    "postgres": "postgres",
    "postgresql": "postgres",
    "pgsql": "postgres",
}

EngineName = Dialect  # the engine a URL names is the SQL dialect spoken there
_DEFAULT_PORTS: dict[EngineName, int] = {"mysql": 3306, "postgres": 5432}


@dataclass(frozen=True)
class WarehouseUrl:
    engine: EngineName
    host: str
    port: int
    user: str
    password: str
    database: str  # empty only for a server URL parsed with require_database=False
    # PostgreSQL schemas to read (`?schema=sales,hr`); none: every non-system schema.
    schemas: tuple[str, ...] = ()

    @classmethod
    def parse(cls, url: str, *, require_database: bool = True) -> WarehouseUrl:
        parts = urlsplit(url)
        scheme = parts.scheme.split("+")[0]  # accept driver suffixes like mysql+pymysql
        if scheme not in URL_SCHEMES:
            raise ValueError(f"unsupported warehouse URL scheme {parts.scheme!r}")
        engine = URL_SCHEMES[scheme]
        database = unquote(parts.path.lstrip("/"))
        if not database and require_database:
            raise ValueError("the warehouse URL must name a database")
        named = ",".join(parse_qs(parts.query).get("schema", []))
        return cls(
            engine=engine,
            host=parts.hostname or "127.0.0.1",
            port=parts.port or _DEFAULT_PORTS[engine],
            user=unquote(parts.username or ("root" if engine == "mysql" else "postgres")),
            password=unquote(parts.password or ""),
            database=database,
            schemas=tuple(s.strip() for s in named.split(",") if s.strip()),
        )

    def as_user(self, user: str, password: str) -> WarehouseUrl:
        return replace(self, user=user, password=password)

    def with_database(self, database: str) -> WarehouseUrl:
        return replace(self, database=database)

    @property
    def url(self) -> str:
        """The URL to connect with again, password included (str() masks it)."""
        secret = f":{self.password}" if self.password else ""
        query = f"?schema={','.join(self.schemas)}" if self.schemas else ""
        return f"{self.engine}://{self.user}{secret}@{self.host}:{self.port}/{self.database}{query}"

    def __str__(self) -> str:
        return replace(self, password="***" if self.password else "").url


def with_schema(url: str, schema: str | None) -> str:
    """`url` reading only PostgreSQL schema `schema` (unchanged when None)."""
    if not schema:
        return url
    parts = urlsplit(url)
    query = {k: v for k, v in parse_qs(parts.query).items() if k != "schema"}
    query["schema"] = [schema]
    return urlunsplit(parts._replace(query=urlencode(query, doseq=True, safe=",")))


def without_schema(url: str) -> str:
    """`url` without the schema option, for drivers that do not know it."""
    parts = urlsplit(url)
    query = {k: v for k, v in parse_qs(parts.query).items() if k != "schema"}
    return urlunsplit(parts._replace(query=urlencode(query, doseq=True)))

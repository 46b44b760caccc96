"""Database URLs such as `mysql://root@127.0.0.1:3306/switchboard_warehouse`, parsed once
into the parts a driver connects with."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal
from urllib.parse import unquote, urlsplit

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
        return cls(
            engine=engine,
            host=parts.hostname or "127.0.0.1",
            port=parts.port or _DEFAULT_PORTS[engine],
            user=unquote(parts.username or ("root" if engine == "mysql" else "postgres")),
            password=unquote(parts.password or ""),
            database=database,
        )

    def as_user(self, user: str, password: str) -> WarehouseUrl:
        return replace(self, user=user, password=password)

    def with_database(self, database: str) -> WarehouseUrl:
        return replace(self, database=database)

    @property
    def url(self) -> str:
        """The URL to connect with again, password included (str() masks it)."""
        secret = f":{self.password}" if self.password else ""
        return f"{self.engine}://{self.user}{secret}@{self.host}:{self.port}/{self.database}"

    def __str__(self) -> str:
        return replace(self, password="***" if self.password else "").url

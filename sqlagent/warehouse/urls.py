"""Database URLs such as `mysql://root@127.0.0.1:3306/switchboard_warehouse`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal
from urllib.parse import unquote, urlsplit

EngineName = Literal["mysql", "postgres"]

_SCHEMES: dict[str, EngineName] = {
    "mysql": "mysql",
    "mariadb": "mysql",
    "postgres": "postgres",
    "postgresql": "postgres",
    "pgsql": "postgres",
}
_DEFAULT_PORTS: dict[EngineName, int] = {"mysql": 3306, "postgres": 5432}


@dataclass(frozen=True)
class WarehouseUrl:
    engine: EngineName
    host: str
    port: int
    user: str
    password: str
    database: str

    @classmethod
    def parse(cls, url: str) -> WarehouseUrl:
        parts = urlsplit(url)
        scheme = parts.scheme.split("+")[0]  # accept driver suffixes like mysql+pymysql
        if scheme not in _SCHEMES:
            raise ValueError(f"unsupported warehouse URL scheme {parts.scheme!r}")
        engine = _SCHEMES[scheme]
        database = unquote(parts.path.lstrip("/"))
        if not database:
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

    def __str__(self) -> str:
        secret = ":***" if self.password else ""
        return f"{self.engine}://{self.user}{secret}@{self.host}:{self.port}/{self.database}"

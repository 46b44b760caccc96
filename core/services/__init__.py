"""The embedded services: what the project runs itself when a URL is not configured.

`manage.py services start|stop|status` drives them. Each service module exposes `start()`,
`stop()` and `status()`; starting is idempotent and data survives restarts under VAR_DIR.
"""

from core.services import graph, postgres, redis
from core.services.base import ServiceError, ServiceStatus

SERVICES = {"postgres": postgres, "graph": graph, "redis": redis}

__all__ = ["SERVICES", "ServiceError", "ServiceStatus"]

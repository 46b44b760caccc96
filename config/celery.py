import logging
import os
from typing import Any

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("switchboard")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


@worker_init.connect
def refuse_a_writing_agent_login(**kwargs: Any) -> None:
    """A worker runs the SQL agent too (reports): it starts only with a read-only login."""
    from core.databases.agent_login import AgentLoginCanWrite
    from core.databases.connect import check_at_start

    try:
        logger.info(check_at_start())
    except AgentLoginCanWrite as error:
        logger.critical("not starting: %s", error)
        raise SystemExit(1) from error  # an Exception would only be logged by the signal

"""Start-up checks: a search setting that would fail every search is reported when the
server starts (`manage.py check`), not at the first question."""

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, register

from .fusion import FUSIONS, RankerModelError, configured_model


@register()
def check_fusion(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if settings.RETRIEVAL_FUSION not in FUSIONS:
        return [
            Error(
                f"RETRIEVAL_FUSION is {settings.RETRIEVAL_FUSION!r}",
                hint=f"one of {', '.join(FUSIONS)}",
                id="retrieval.E001",
            )
        ]
    try:
        configured_model()
    except RankerModelError as error:
        return [
            Error(
                str(error),
                hint="fit one with `manage.py train_ranker --out FILE`, or unset "
                "RETRIEVAL_RANKER_MODEL to use the shipped weights",
                id="retrieval.E002",
            )
        ]
    return []

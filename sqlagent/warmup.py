"""What a server process reads before its first database question: the default data
source's registry, its stored values (seconds on the demo warehouse) and its verified
queries, and the part-of-speech tagger and the parser both planners read. Each is read
once per registry version; later versions are read when asked."""

from django.conf import settings

from core.language import word_tags
from registries.models import DataSource
from sqlagent.agent import Source
from sqlagent.linking.values import stored_values
from sqlagent.verified.store import usable


def warm_up() -> None:
    # Only reads: without a default data source there is nothing to read yet (reading the
    # semantic layer would create it, a write the first question may make instead).
    if not DataSource.objects.filter(name=settings.REGISTRIES_DEFAULT_DATA_SOURCE).exists():
        return
    target = Source.named(None)
    stored_values(target.layer, target.url, agent=target.agent_login)
    usable(target.layer)
    word_tags(("warm",))  # loads the pipeline the tagger and the parser share

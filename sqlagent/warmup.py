"""What a server process reads before its first database question: the default data
source's registry, its stored values (seconds on the demo warehouse) and its verified
queries. Each is read once per registry version; later versions are read when asked."""

from sqlagent.agent import Source
from sqlagent.linking.values import stored_values
from sqlagent.verified.store import usable


def warm_up() -> None:
    target = Source.named(None)
    stored_values(target.layer, target.url, agent=target.agent_login)
    usable(target.layer)

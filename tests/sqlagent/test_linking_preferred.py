"""Related verified queries break ties between equally likely meanings of a word."""

from sqlagent.linking.chosen import choose
from sqlagent.linking.links import Link
from sqlagent.linking.schema_words import Element


def _name_of(table: str) -> Link:
    element = Element(table, "name", "text", ((("name",), 1.0),))
    return Link(0, 1, element, 0.9)


def test_the_column_verified_queries_use_wins_a_tie_and_is_no_longer_ambiguous() -> None:
    links = [_name_of("singer"), _name_of("song")]
    alone = choose(links).choices[0]
    assert alone.table == "singer" and alone.alternatives == 1
    guided = choose(links, frozenset({("song", "name")})).choices[0]
    assert guided.table == "song"


def test_a_surer_meaning_is_not_overruled() -> None:
    surer = Link(0, 1, Element("singer", "name", "text", ((("name",), 1.0),)), 0.95)
    chosen = choose([surer, _name_of("song")], frozenset({("song", "name")})).choices[0]
    assert chosen.table == "singer"

"""Follow-up questions rewritten into standalone ones from the conversation so far."""

from datetime import date
from typing import Any

import pytest
from pytest_django.fixtures import Settings

from chat.orchestrator.context import Turn
from chat.orchestrator.memory import resolve_follow_up
from sqlagent.vocabulary import Entry, Vocabulary

TODAY = date(2026, 10, 15)


def sql_answer(question: str, sql: str = "SELECT 1") -> list[Turn]:
    return [
        Turn("user", question),
        Turn("assistant", "3,397 work orders.", "sql", {"question": question, "sql": sql}),
    ]


def document_answer(question: str, *files: str) -> list[Turn]:
    sources: list[dict[str, Any]] = [{"n": i + 1, "file_name": f} for i, f in enumerate(files)]
    data = {"query": question, "sources": sources}
    return [Turn("user", question), Turn("assistant", "From the documents", "documents", data)]


COMPLETED_2025 = sql_answer("How many work orders were completed in 2025?")


def test_a_new_date_range_replaces_the_previous_one() -> None:
    follow_up = resolve_follow_up("and last month?", COMPLETED_2025, today=TODAY)
    assert follow_up is not None
    assert follow_up.kind == "date_range"
    assert follow_up.route == "sql"
    assert follow_up.question == "How many work orders were completed last month?"
    assert follow_up.base == {"question": COMPLETED_2025[0].content, "sql": "SELECT 1"}
    assert any("2026-09-01 to 2026-09-30" in reason for reason in follow_up.reasons)


@pytest.mark.parametrize(
    ("asked", "rewritten"),
    [
        ("and in 2024?", "How many work orders were completed in 2024?"),
        ("same for 2026", "How many work orders were completed in 2026?"),
        ("what about Q1 2026?", "How many work orders were completed q1 2026?"),
        ("How about this quarter", "How many work orders were completed this quarter?"),
    ],
)
def test_date_follow_ups_read_as_the_previous_question(asked: str, rewritten: str) -> None:
    follow_up = resolve_follow_up(asked, COMPLETED_2025, today=TODAY)
    assert follow_up is not None and follow_up.question.lower() == rewritten.lower()


def test_a_date_range_is_added_to_a_question_that_had_none() -> None:
    history = sql_answer("How many customers are inactive?")
    follow_up = resolve_follow_up("and in 2024?", history, today=TODAY)
    assert follow_up is not None
    assert follow_up.question == "How many customers are inactive in 2024?"


def test_a_new_name_replaces_the_previous_name() -> None:
    history = sql_answer(
        "How many travel hours were logged on work orders for Lighthouse Power LLC?"
    )
    follow_up = resolve_follow_up("and for Sterling Power Holdings?", history, today=TODAY)
    assert follow_up is not None and follow_up.kind == "value"
    assert follow_up.question == (
        "How many travel hours were logged on work orders for Sterling Power Holdings?"
    )
    assert "'Sterling Power Holdings' in place of 'Lighthouse Power LLC'" in follow_up.reasons


def test_a_bare_name_replaces_the_only_name() -> None:
    history = sql_answer("How many active employees does the Dallas branch have?")
    follow_up = resolve_follow_up("And Phoenix?", history, today=TODAY)
    assert follow_up is not None
    assert follow_up.question == "How many active employees does the Phoenix branch have?"


def test_a_value_with_nothing_to_replace_is_added() -> None:
    follow_up = resolve_follow_up("and for Acme Corp?", COMPLETED_2025, today=TODAY)
    assert follow_up is not None
    assert follow_up.question == "How many work orders were completed in 2025 for Acme Corp?"


def test_the_warehouse_vocabulary_lets_one_status_replace_another() -> None:
    status = ("workOrder", "status")
    vocabulary = Vocabulary(
        {
            "completed": (Entry("value", *status, value="completed"),),
            "cancelled": (Entry("value", *status, value="cancelled"),),
        },
        1,
    )
    follow_up = resolve_follow_up(
        "and cancelled ones?", COMPLETED_2025, vocabulary=vocabulary, today=TODAY
    )
    assert follow_up is not None
    assert follow_up.question == "How many work orders were cancelled in 2025?"
    # Without the vocabulary "completed" is just a word: the value is added instead.
    plain = resolve_follow_up("and cancelled ones?", COMPLETED_2025, today=TODAY)
    assert plain is not None and plain.question != follow_up.question


def test_another_person_after_a_document_answer_rescopes_the_search() -> None:
    history = document_answer(
        "Summarize Sarah Chen's work at Brightwater Health", "sarah_chen.docx"
    )
    follow_up = resolve_follow_up("what about Sarah Okafor?", history, today=TODAY)
    assert follow_up is not None
    assert follow_up.kind == "person"
    assert follow_up.route == "documents"
    assert follow_up.person == "Sarah Okafor"
    assert follow_up.question == "Summarize Sarah Okafor's work at Brightwater Health"


def test_a_first_name_takes_the_place_of_the_person() -> None:
    history = document_answer("Kevin Mahoney's industry experience", "kevin_mahoney.txt")
    follow_up = resolve_follow_up("what about Mark?", history, today=TODAY)
    assert follow_up is not None and follow_up.person == "Mark"
    assert follow_up.question == "Mark's industry experience"


def test_a_pronoun_names_the_previous_person() -> None:
    history = document_answer(
        "What did Will Patterson build for Project Lumen?", "will_patterson.docx"
    )
    follow_up = resolve_follow_up("and his education?", history, today=TODAY)
    assert follow_up is not None
    assert (follow_up.kind, follow_up.person) == ("attribute", "Will Patterson")
    assert follow_up.question == "Will Patterson's education"
    inside = resolve_follow_up("what are his certifications?", history, today=TODAY)
    assert inside is not None
    assert inside.question == "what are Will Patterson's certifications?"


def test_her_at_the_end_is_the_person_not_a_possessive() -> None:
    history = document_answer("What does Sarah Chen do at TechCorp?", "sarah_chen.docx")
    follow_up = resolve_follow_up("tell me about her", history, today=TODAY)
    assert follow_up is not None and follow_up.question == "tell me about Sarah Chen"


def test_a_pronoun_without_a_known_person_is_no_follow_up() -> None:
    # No source file names the person: nothing says who "her" is.
    history = document_answer("What does Sarah Chen do at TechCorp?")
    assert resolve_follow_up("and her certifications?", history, today=TODAY) is None


def test_counted_things_replace_each_other() -> None:
    history = document_answer(
        "How much vacation does an employee with six years of service get?", "time_off_policy.md"
    )
    follow_up = resolve_follow_up("and with 10 years?", history, today=TODAY)
    assert follow_up is not None and follow_up.route == "documents"
    assert follow_up.question == "How much vacation does an employee with 10 years of service get?"


def test_graph_follow_ups_keep_the_relation_and_change_the_entity() -> None:
    history = [
        Turn("user", "Who worked with Alexis Torres at TechCorp?"),
        Turn("assistant", "Sarah Chen and James Smith.", "graph", {}),
    ]
    follow_up = resolve_follow_up("and at Cedar Loop Analytics?", history, today=TODAY)
    assert follow_up is not None and follow_up.route == "graph"
    assert follow_up.question == "Who worked with Alexis Torres at Cedar Loop Analytics?"
    history[0] = Turn("user", "Who worked on Project Lumen?")
    follow_up = resolve_follow_up("what about Project Harbor?", history, today=TODAY)
    assert follow_up is not None and follow_up.question == "Who worked on Project Harbor?"


@pytest.mark.parametrize(
    "asked", ["why?", "show me the SQL", "Where does it say that?", "how did you get that"]
)
def test_meta_questions_keep_the_answer_they_ask_about(asked: str) -> None:
    follow_up = resolve_follow_up(asked, COMPLETED_2025, today=TODAY)
    assert follow_up is not None
    assert (follow_up.kind, follow_up.route) == ("meta", "sql")
    assert follow_up.question == COMPLETED_2025[0].content
    assert follow_up.base["sql"] == "SELECT 1"


@pytest.mark.parametrize(
    "asked",
    [
        "What PPE is required on every job?",
        "How many work orders are on hold?",
        "thanks",
        "and how many customers are in Texas?",
    ],
)
def test_a_question_of_its_own_is_no_follow_up(asked: str) -> None:
    assert resolve_follow_up(asked, COMPLETED_2025, today=TODAY) is None


def test_nothing_to_follow_without_an_answer() -> None:
    assert resolve_follow_up("why?", [], today=TODAY) is None
    assert resolve_follow_up("and in 2024?", [Turn("user", "hello")], today=TODAY) is None


def test_an_answer_in_between_ends_the_thread() -> None:
    history = [
        *COMPLETED_2025,
        Turn("user", "thanks"),
        Turn("assistant", "You're welcome.", "general"),
    ]
    assert resolve_follow_up("and in 2024?", history, today=TODAY) is None


def test_the_question_comes_from_the_user_turn_when_the_data_has_none() -> None:
    history = [
        Turn("user", "How many inspections failed in 2026?"),
        Turn("assistant", "276 inspections.", "sql", {"rows": [[276]]}),
    ]
    follow_up = resolve_follow_up("and in 2025?", history, today=TODAY)
    assert follow_up is not None and follow_up.question == "How many inspections failed in 2025?"


def test_only_the_last_max_conversation_messages_count(settings: Settings) -> None:
    history = [*COMPLETED_2025, Turn("user", "ok"), Turn("user", "hmm")]
    assert resolve_follow_up("and in 2024?", history, today=TODAY) is not None
    settings.MAX_CONVERSATION_MESSAGES = 2
    assert resolve_follow_up("and in 2024?", history, today=TODAY) is None


def test_long_questions_are_never_follow_ups() -> None:
    asked = "and what about the number of cancelled work orders in the Dallas branch last year?"
    assert resolve_follow_up(asked, COMPLETED_2025, today=TODAY) is None

"""The schema-linked planner on third-party databases nobody described: bootstrapped from
introspection alone, asked in plain words, checked against SQL written by hand."""

import os
import re
from typing import Any

import pytest
from django.conf import settings

from core.databases.scope import Scope
from registries.datasets import load_spider_db
from registries.models import DataSource
from sqlagent.agent import Source, ask
from sqlagent.answer_matching import matches
from sqlagent.execution import execute_read
from sqlagent.linking import plan_linked
from sqlagent.linking.question import read_words
from sqlagent.linking.values import stored_values
from sqlagent.third_party import source_for_url

from .agent_fixtures import agent_warehouse_schema, agent_warehouse_url, no_llm, warehouse
from .fake_llm import FakeLLM

__all__ = ["agent_warehouse_schema", "agent_warehouse_url", "no_llm", "warehouse"]

PREFIX = re.sub(r"\W", "_", os.environ.get("TEST_DATABASE_NAME") or "test_linking")[:40]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_llm")]


@pytest.fixture(scope="module")
def hr_url() -> str:
    if not (settings.DATASETS_DIR / "spider_train").is_dir():
        pytest.skip(f"the sample datasets are not at {settings.DATASETS_DIR}")
    return load_spider_db("hr_1", "mysql://root@127.0.0.1:3306/", database=f"{PREFIX}_hr_1")[0].url


def _asked(question: str, url: str) -> Any:
    source, _ = source_for_url(url)
    return ask(question, source=source, scope=Scope())


def _gold(sql: str, url: str) -> list[tuple[Any, ...]]:
    return execute_read(sql, url=url, agent=False, max_rows=10_000).rows


# Questions written for this test in the words of someone asking, with the SQL that
# answers them; each needs a different shape of query.
ASKED = [
    ("How many employees are there?", "SELECT COUNT(*) FROM employees", False),
    (
        "What are the first names of employees whose salary is more than 15000?",
        "SELECT first_name FROM employees WHERE salary > 15000",
        False,
    ),
    (
        "What is the average salary of employees in department 90?",
        "SELECT AVG(salary) FROM employees WHERE department_id = 90",
        False,
    ),
    (
        "What are the first names of employees in the Marketing department?",
        "SELECT e.first_name FROM employees e JOIN departments d "
        "ON e.department_id = d.department_id WHERE d.department_name = 'Marketing'",
        False,
    ),
    (
        "How many employees does each department id have?",
        "SELECT department_id, COUNT(*) FROM employees GROUP BY department_id",
        False,
    ),
    (
        "Show the first name of the employee with the highest salary.",
        "SELECT first_name FROM employees ORDER BY salary DESC LIMIT 1",
        True,
    ),
    (
        "List the last names of employees who earn more than the average salary.",
        "SELECT last_name FROM employees WHERE salary > (SELECT AVG(salary) FROM employees)",
        False,
    ),
    (  # a superlative over a count: "number" is no column here
        "Which department has the largest number of employees?",
        "SELECT d.department_name FROM departments d JOIN employees e "
        "ON e.department_id = d.department_id GROUP BY d.department_id, d.department_name "
        "ORDER BY COUNT(*) DESC LIMIT 1",
        True,
    ),
    (  # the subject before "most common"
        "Which job id is the most common among employees?",
        "SELECT job_id FROM employees GROUP BY job_id ORDER BY COUNT(*) DESC LIMIT 1",
        True,
    ),
    (  # "the id of the employee": its key
        "What are the id and last name of the employee with the highest salary?",
        "SELECT employee_id, last_name FROM employees ORDER BY salary DESC LIMIT 1",
        True,
    ),
    (  # a bound said in five words, not "= 12000"
        "Which employees earn a salary greater than or equal to 12000? Give their last names.",
        "SELECT last_name FROM employees WHERE salary >= 12000",
        False,
    ),
    (  # a contraction is one word and a negation, not the start of a quoted value
        "Which departments don't have any employees? Give the department names.",
        "SELECT department_name FROM departments WHERE department_id NOT IN "
        "(SELECT department_id FROM employees WHERE department_id IS NOT NULL)",
        False,
    ),
    (  # "two" counts employees: it is no stored value
        "Which department ids have exactly two employees?",
        "SELECT department_id FROM employees GROUP BY department_id HAVING COUNT(*) = 2",
        False,
    ),
    (  # ordered by a count, not by a column
        "Show each job id and how many employees hold it, sorted by the number of employees.",
        "SELECT job_id, COUNT(*) FROM employees GROUP BY job_id ORDER BY COUNT(*)",
        False,
    ),
    (  # a superlative in each group is that group's extreme
        "What is the lowest salary in each department id?",
        "SELECT department_id, MIN(salary) FROM employees GROUP BY department_id",
        False,
    ),
    (  # the subject, then a relative clause's verb, then "most often"
        "What is the job id that employees hold most often?",
        "SELECT job_id FROM employees GROUP BY job_id ORDER BY COUNT(*) DESC LIMIT 1",
        True,
    ),
    (  # the counted rows are the countries, each once, not the regions a join repeats
        "For each region, give the region's name and the number of countries in it.",
        "SELECT r.region_name, COUNT(*) FROM regions r JOIN countries c "
        "ON c.region_id = r.region_id GROUP BY r.region_name",
        False,
    ),
    (  # the extreme value is asked, not the row that holds it
        "What is the highest salary of employees in department 90?",
        "SELECT MAX(salary) FROM employees WHERE department_id = 90",
        False,
    ),
    (  # a column counted with no groups: its different values
        "How many job ids appear among the employees?",
        "SELECT COUNT(DISTINCT job_id) FROM employees",
        False,
    ),
    (  # a year after "in": the date column's year
        "Which employee ids have a job history that started in 1998?",
        "SELECT employee_id FROM job_history WHERE YEAR(start_date) = 1998",
        False,
    ),
    (  # a full name is the first and the last
        "What are the full names of the employees in department 90?",
        "SELECT first_name, last_name FROM employees WHERE department_id = 90",
        False,
    ),
    (  # a number said of a column across "is not"
        "List the last names of employees whose department id is not 50.",
        "SELECT last_name FROM employees WHERE department_id <> 50",
        False,
    ),
    (  # two numbers of one column joined by "or"
        "Which employees have a salary of either 24000 or 17000? Give their last names.",
        "SELECT last_name FROM employees WHERE salary IN (24000, 17000)",
        False,
    ),
    (  # quoted text "in" a column is matched inside it
        "Which employees have 'son' in their last names? Give their employee ids.",
        "SELECT employee_id FROM employees WHERE last_name LIKE '%son%'",
        False,
    ),
    (  # unquoted text after "the letter", and a negation before it: NOT LIKE
        "Give the last names of employees whose first name does not contain the letter e.",
        "SELECT last_name FROM employees WHERE first_name NOT LIKE '%e%'",
        False,
    ),
    (  # the letter is searched for, not read as a stored value
        "List the emails of employees whose last name contains the letter z.",
        "SELECT email FROM employees WHERE last_name LIKE '%z%'",
        False,
    ),
    (  # "with the letter y": the letter introduces the text without a verb of containing
        "Which employees have a first name with the letter y? Give their last names.",
        "SELECT last_name FROM employees WHERE first_name LIKE '%y%'",
        False,
    ),
    (  # text in curly quotes is quoted text
        "Which employees have a first name containing \u2018ste\u2019? Give their employee ids.",
        "SELECT employee_id FROM employees WHERE first_name LIKE '%ste%'",
        False,
    ),
    (  # capitals right after "contains" are the text looked for
        "What are the job titles of jobs whose job id contains MAN?",
        "SELECT job_title FROM jobs WHERE job_id LIKE '%MAN%'",
        False,
    ),
    (  # a bound after a verb of measure in any of its forms ("earning"): the salary
        "Which employees are earning more than 12000? Give their last names.",
        "SELECT last_name FROM employees WHERE salary > 12000",
        False,
    ),
    (  # values of one column joined by "or" are alternatives; the other condition holds
        "List the last names of employees in department 50 whose job id is 'ST_CLERK' or "
        "'SH_CLERK'.",
        "SELECT last_name FROM employees WHERE department_id = 50 "
        "AND job_id IN ('ST_CLERK', 'SH_CLERK')",
        False,
    ),
    (  # a second key of the order, with its own direction
        "List the last names of employees with a salary above 12000, sorted by salary "
        "descending and last name ascending.",
        "SELECT last_name FROM employees WHERE salary > 12000 ORDER BY salary DESC, last_name",
        True,
    ),
    (  # "top 2" is the limit of the superlative read after it
        "What are the ids of the top 2 departments with the most employees?",
        "SELECT department_id FROM employees GROUP BY department_id ORDER BY COUNT(*) DESC LIMIT 2",
        True,
    ),
]


@pytest.mark.parametrize(("question", "gold", "ordered"), ASKED)
def test_a_bootstrapped_database_is_answered_from_its_schema_and_values(
    hr_url: str, question: str, gold: str, ordered: bool, settings: Any
) -> None:
    settings.SQL_LINKED_MIN_CONFIDENCE = 0  # the reading, whatever the fitted threshold
    answer = _asked(question, hr_url)
    assert answer.status == "answered", answer.reason
    assert answer.generator == "linked"
    assert matches(_gold(gold, hr_url), answer.rows, ordered=ordered), answer.sql


def test_a_number_is_compared_with_a_text_column_that_holds_numbers(settings: Any) -> None:
    if not (settings.DATASETS_DIR / "spider_train").is_dir():
        pytest.skip(f"the sample datasets are not at {settings.DATASETS_DIR}")
    settings.SQL_LINKED_MIN_CONFIDENCE = 0
    url = load_spider_db(
        "tracking_share_transactions",
        "mysql://root@127.0.0.1:3306/",
        database=f"{PREFIX}_shares",
    )[0].url
    # share_count is a VARCHAR column whose every value is a number.
    answer = _asked("Which transaction ids have a share count under 50?", url)
    assert answer.status == "answered", answer.reason
    gold = "SELECT transaction_id FROM Transactions WHERE CAST(share_count AS DECIMAL) < 50"
    assert matches(_gold(gold, url), answer.rows, ordered=False), answer.sql


def test_words_the_schema_does_not_hold_are_declined_with_the_reason(hr_url: str) -> None:
    answer = _asked("Which employees have a parking permit for the rooftop garage?", hr_url)
    assert answer.status == "declined"
    assert answer.rows == []  # every employee is not who has a permit
    assert answer.reason
    assert {"parking", "permit", "garage"} <= {w for words in answer.unknown for w in words.split()}


QUESTION = "What are the first names of employees whose salary is more than 15000?"


def _step(answer: Any, name: str) -> dict[str, Any]:
    return next(e for e in answer.trace if e["step"] == name and e["status"] == "end")["detail"]


def test_a_reading_no_rows_could_make_sure_is_not_run(hr_url: str, settings: Any) -> None:
    settings.SQL_LINKED_MIN_CONFIDENCE = 0.9999
    answer = _asked(QUESTION, hr_url)
    assert answer.generator != "linked"  # the term planner's reading, or a decline
    if answer.status == "declined":
        assert "not sure enough to run" in answer.reason
    assert _step(answer, "linking")["links"]  # what it understood, for the trace


def test_a_reading_its_rows_do_not_make_sure_is_not_answered(hr_url: str, settings: Any) -> None:
    settings.SQL_LINKED_MIN_CONFIDENCE = 0
    judged = _step(_asked(QUESTION, hr_url), "confidence")["confidence"]
    settings.SQL_LINKED_MIN_CONFIDENCE = judged + 0.0001  # below only once its rows are seen
    answer = _asked(QUESTION, hr_url)
    assert answer.status == "declined"
    assert "not sure enough to answer" in answer.reason
    assert answer.rows == [] and answer.columns == []  # its rows are not shown
    evidence = _step(answer, "confidence")["evidence"]
    # The rows' evidence beside the reading's: one row per such employee, none repeated.
    assert evidence["repeated_share"] == 0 and evidence["empty"] == 0
    assert (
        evidence["unexplained_share"] == _step(answer, "linking")["evidence"]["unexplained_share"]
    )


def test_rows_that_repeat_lower_the_confidence(hr_url: str, settings: Any) -> None:
    settings.SQL_LINKED_MIN_CONFIDENCE = 0
    question = "What are the first names of employees?"
    distinct, repeated = (
        _asked(question, hr_url),
        _asked("What are the job ids of employees?", hr_url),
    )
    judged = [_step(a, "confidence") for a in (distinct, repeated)]
    assert judged[0]["evidence"]["repeated_share"] < judged[1]["evidence"]["repeated_share"]


def test_the_curated_warehouse_keeps_its_term_planner_first(warehouse: DataSource) -> None:
    answer = ask("How many customers do we have?", scope=Scope())
    assert answer.status == "answered"
    assert answer.generator == "compiler"
    assert not any(e["step"] == "linking" for e in answer.trace)


def test_rows_of_the_curated_warehouse_are_shown_as_its_admin_configured_them(
    warehouse: DataSource,
) -> None:
    # The term planner has no "payment terms": the schema-linked reading answers, and lists
    # the customers by the display columns confirmed in the admin, not their name alone.
    answer = ask("Show the customers whose payment terms are Net 45.", scope=Scope())
    assert answer.status == "answered", answer.reason
    assert answer.generator == "linked"
    assert answer.columns[:3] == ["id", "customerNumber", "name"]
    assert _step(answer, "confidence")["evidence"]["outputs"] == 1  # weighed as read


def test_an_llm_gets_the_linked_reading_and_its_sql_is_checked_as_ever(hr_url: str) -> None:
    fake = FakeLLM(
        lambda prompt: "```sql\nSELECT FIRST_NAME FROM employees WHERE SALARY > 15000\n```"
    )
    with fake.configured():
        answer = _asked(
            "What are the first names of employees whose salary is more than 15000?", hr_url
        )
    assert answer.status == "answered", answer.reason
    assert answer.generator == "llm"
    assert matches(
        _gold("SELECT first_name FROM employees WHERE salary > 15000", hr_url), answer.rows,
        ordered=False,
    )  # fmt: skip
    prompt = fake.prompts[0]
    assert "Words of the question found in the schema" in prompt
    assert '"salary" -> employees.SALARY' in prompt
    assert '"first names" -> employees.FIRST_NAME' in prompt


def test_an_llm_reply_that_writes_is_refused_on_a_bootstrapped_database(hr_url: str) -> None:
    fake = FakeLLM(lambda prompt: "```sql\nDELETE FROM employees\n```")
    with fake.configured():
        answer = _asked("How many employees are there?", hr_url)
    assert answer.status in ("declined", "error")
    assert answer.rows == []
    assert _gold("SELECT COUNT(*) FROM employees", hr_url)[0][0] > 0  # nothing was deleted


def test_words_no_name_holds_can_be_linked_by_meaning(hr_url: str, settings: Any) -> None:
    settings.SQL_LINK_BY_MEANING = True
    settings.SQL_LINKED_MIN_CONFIDENCE = 0
    settings.MAX_QUERY_ROWS = 1000  # every salary, not the first 100
    answer = _asked("List the wages of employees.", hr_url)
    assert answer.status == "answered", answer.reason
    linking = next(e for e in answer.trace if e["step"] == "linking" and e["status"] == "end")
    assert "wages -> employees.SALARY" in linking["detail"]["links"]
    assert matches(_gold("SELECT salary FROM employees", hr_url), answer.rows, ordered=False)


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("Who doesn't have 'Cat'?", ["Who", "doesn't", "have", "Cat"]),
        ("the country's airports", ["the", "country", "airports"]),
        ("the students' names and 'Ann'", ["the", "students", "names", "and", "Ann"]),
        ("between -50 and 2,000,000", ["between", "-50", "and", "2000000"]),
    ],
)
def test_a_contraction_or_possessive_stays_in_its_word(question: str, words: list[str]) -> None:
    # Split off, its apostrophe opened a quoted value that ran to the next quote.
    assert [w.text for w in read_words(question)] == words


def test_a_name_is_capitalised_where_no_sentence_opens() -> None:
    words = read_words('"Give" the cities in Texas. Show Names (Ann)?')
    assert [w.text for w in words if w.capitalised] == ["Texas", "Names", "Ann"]


def test_a_shape_word_inside_a_longer_column_name_is_the_shape(hr_url: str, settings: Any) -> None:
    settings.SQL_LINKED_MIN_CONFIDENCE = 0
    # "count" is not countries.country_id (a crude stem), nor the last word of a name.
    answer = _asked("Show each region id and the count of countries, sorted by the count.", hr_url)
    assert answer.status == "answered", answer.reason
    gold = "SELECT region_id, COUNT(*) FROM countries GROUP BY region_id"
    assert matches(_gold(gold, hr_url), answer.rows, ordered=False), answer.sql
    counts = [row[1] for row in answer.rows]
    assert counts == sorted(counts), answer.sql  # ordered by the count (ties either way)


def test_a_key_column_the_question_names_is_the_join_it_takes(settings: Any) -> None:
    if not (settings.DATASETS_DIR / "spider_train").is_dir():
        pytest.skip(f"the sample datasets are not at {settings.DATASETS_DIR}")
    settings.SQL_LINKED_MIN_CONFIDENCE = 0
    url = load_spider_db("voter_2", "mysql://root@127.0.0.1:3306/", database=f"{PREFIX}_voter_2")[
        0
    ].url
    # Voting_record refers to Student by six columns; the treasurer's is the one named.
    answer = _asked("Show the last names of the students who have treasurer votes.", url)
    assert answer.status == "answered", answer.reason
    gold = "SELECT s.LName FROM Student s JOIN Voting_record v ON s.StuID = v.Treasurer_Vote"
    assert matches(_gold(gold, url), answer.rows, ordered=False), answer.sql


def test_a_verb_that_meets_a_column_by_its_root_is_not_asked_for(settings: Any) -> None:
    if not (settings.DATASETS_DIR / "spider_train").is_dir():
        pytest.skip(f"the sample datasets are not at {settings.DATASETS_DIR}")
    settings.SQL_LINKED_MIN_CONFIDENCE = 0
    url = load_spider_db("phone_1", "mysql://root@127.0.0.1:3306/", database=f"{PREFIX}_phones")
    # "use" meets screen_mode.used_kb by its root; said after "phones", it is their verb.
    answer = _asked("Which accreditation levels do more than 3 phones use?", url[0].url)
    assert answer.status == "answered", answer.reason
    gold = "SELECT Accreditation_level FROM phone GROUP BY Accreditation_level HAVING COUNT(*) > 3"
    assert matches(_gold(gold, url[0].url), answer.rows, ordered=False), answer.sql


SPIDER_READINGS = [
    (  # "each product type": a table's word and its column's, grouped by the column
        "department_store",
        "What is the highest product price in each product type?",
        "SELECT product_type_code, MAX(product_price) FROM Products GROUP BY product_type_code",
    ),
    (  # "between" two dates: the second is the upper bound
        "tracking_orders",
        "What are the ids of the orders placed between 1980-01-01 and 1995-12-31?",
        "SELECT order_id FROM Orders WHERE date_order_placed BETWEEN '1980-01-01' AND '1995-12-31'",
    ),
    (  # two bounds no one row can meet: each holds for some row of the country (INTERSECT)
        "climbing",
        "Which countries have a mountain taller than 5500 and a mountain shorter than 5200?",
        "SELECT Country FROM mountain WHERE Height > 5500 "
        "INTERSECT SELECT Country FROM mountain WHERE Height < 5200",
    ),
    (  # "people over 30": a bound said of people is on their age; "people" is Person
        "network_2",
        "How many people over 30 live in each city?",
        "SELECT city, COUNT(*) FROM Person WHERE age > 30 GROUP BY city",
    ),
    (  # an aggregate compared per group is HAVING
        "film_rank",
        "Which studios have an average gross above 5000000?",
        "SELECT Studio FROM film GROUP BY Studio HAVING AVG(Gross_in_dollar) > 5000000",
    ),
    (  # an aggregate said once is of each measure listed right after it
        "candidate_poll",
        "What are the average height and weight of the men?",
        "SELECT AVG(Height), AVG(Weight) FROM people WHERE Sex = 'M'",
    ),
    (  # a column the condition reads, beside an aggregate, is not a group
        "railway",
        'What is the minimum age of managers in countries that are not "United States"?',
        "SELECT MIN(Age) FROM manager WHERE Country <> 'United States'",
    ),
    (  # counted words ending in a column of the table: its different values
        "culture_company",
        "How many movie titles are there?",
        "SELECT COUNT(DISTINCT Title) FROM movie",
    ),
    (  # "or later" keeps the year itself
        "theme_gallery",
        "How many exhibitions took place in 2004 or later?",
        "SELECT COUNT(*) FROM exhibition WHERE Year >= 2004",
    ),
    (  # a written date
        "hr_1",
        "Which employees were hired before June 25th, 1987? Give their first names.",
        "SELECT FIRST_NAME FROM employees WHERE HIRE_DATE < '1987-06-25'",
    ),
    (  # an age in years
        "allergy_1",
        "List the last names of students who are 19 years old.",
        "SELECT LName FROM Student WHERE Age = 19",
    ),
    (  # a grouping's word linked by meaning among the named table's columns (Sex)
        "company_1",
        "How many employees are there of each gender?",
        "SELECT Sex, COUNT(*) FROM employee GROUP BY Sex",
    ),
    (  # text found in the column named after it, not the table's label
        "e_learning",
        'Count the students with the word "ar" in their family names.',
        "SELECT COUNT(*) FROM Students WHERE family_name LIKE '%ar%'",
    ),
    (  # rows kept by a key of two columns are counted as rows, not by one of the columns
        "insurance_fnol",
        'How many policies does the customer named "Dayana Robel" have?',
        "SELECT COUNT(*) FROM Customers_Policies p JOIN Customers c "
        "ON c.Customer_ID = p.Customer_ID WHERE c.Customer_name = 'Dayana Robel'",
    ),
    (  # a word for a sex, where a column named for it stores the code letter
        "allergy_1",
        "How many male students are older than 20?",
        "SELECT COUNT(*) FROM Student WHERE Sex = 'M' AND Age > 20",
    ),
    (  # a number word right before the number column it counts in is its value
        "inn_1",
        "Give the names of the rooms with two beds.",
        "SELECT roomName FROM Rooms WHERE beds = 2",
    ),
    (  # a count of the rows asked about, across a join that repeats them, counts each once
        "program_share",
        "How many different programs were broadcast at night?",
        "SELECT COUNT(DISTINCT Program_ID) FROM broadcast WHERE Time_of_day = 'Night'",
    ),
    (  # the measure the words after the number name
        "aircraft",
        "Which pilots are at least 25 years old? Give their names.",
        "SELECT Name FROM pilot WHERE Age >= 25",
    ),
    (  # "older" compares the age, not the number column named before it
        "allergy_1",
        "Give the student ids that are older than 20.",
        "SELECT StuID FROM Student WHERE Age > 20",
    ),
    (  # a year after a comparison bounds the year column of the table asked about
        "culture_company",
        "What are the titles of books made after 1989?",
        "SELECT Book_Title FROM book_club WHERE Year > 1989",
    ),
    (  # a number right before the number column it is counted in
        "movie_1",
        "What are the titles of movies with a 5 star rating?",
        "SELECT T1.title FROM Movie AS T1 JOIN Rating AS T2 ON T1.mID = T2.mID WHERE T2.stars = 5",
    ),
    (  # "last year" names a column here, not the year before today
        "party_host",
        "List the first year and last year of every party.",
        "SELECT First_year, Last_year FROM party",
    ),
    (  # a count of a column in a table no other word names: that table's rows
        "election",
        "Show the names of counties that have at least two delegates.",
        "SELECT T1.County_name FROM county AS T1 JOIN election AS T2 ON T1.County_id = "
        "T2.District GROUP BY T1.County_id HAVING COUNT(*) >= 2",
    ),
    (  # a plural names rows: "transactions" is the table, not transaction_type cut short
        "customers_and_invoices",
        "Which account id has the greatest number of transactions?",
        "SELECT account_id FROM Financial_Transactions GROUP BY account_id "
        "ORDER BY COUNT(*) DESC LIMIT 1",
    ),
    (  # the counted column said after the count is a condition, not a group
        "inn_1",
        "How many rooms are there with a queen bed?",
        "SELECT COUNT(*) FROM Rooms WHERE bedType = 'Queen'",
    ),
    (  # a name glued to its table's initial: bname
        "loan_1",
        "List the names of banks in New York state.",
        "SELECT bname FROM bank WHERE state = 'New York'",
    ),
    (  # a name of words cut short: acc_bal
        "loan_1",
        "What is the average account balance of customers in Utah?",
        "SELECT AVG(acc_bal) FROM customer WHERE state = 'Utah'",
    ),
    (  # "when did ... leave": the date column named by the verb
        "driving_school",
        "When did Camylle Weissnat leave?",
        "SELECT date_left_staff FROM Staff WHERE first_name = 'Camylle' AND last_name = 'Weissnat'",
    ),
    (  # "the id and details of the investor": the id is the investor's
        "tracking_share_transactions",
        "Show the id and details of the investor that has the largest number of transactions.",
        "SELECT T1.investor_id, T1.Investor_details FROM Investors AS T1 JOIN Transactions AS T2 "
        "ON T1.investor_id = T2.investor_id GROUP BY T1.investor_id, T1.Investor_details "
        "ORDER BY COUNT(*) DESC LIMIT 1",
    ),
    (  # "names of the albums" where only tracks have a `name`: the albums' title
        "store_1",
        "What are the names of the albums that have more than 25 tracks?",
        "SELECT T1.title FROM albums AS T1 JOIN tracks AS T2 ON T1.id = T2.album_id "
        "GROUP BY T1.id HAVING COUNT(*) > 25",
    ),
    (  # a compound's last noun is the table: "device shops" are shops
        "device",
        "What are the names of device shops, and what are the carriers that they carry "
        "devices in stock for?",
        "SELECT T3.Shop_Name, T1.Carrier FROM device AS T1 JOIN stock AS T2 "
        "ON T1.Device_ID = T2.Device_ID JOIN shop AS T3 ON T2.Shop_ID = T3.Shop_ID",
    ),
    (  # "than the average" with no measure after it: the measure said before
        "wedding",
        "Show the name and country for all people whose age is smaller than the average.",
        "SELECT Name, Country FROM people WHERE Age < (SELECT AVG(Age) FROM people)",
    ),
    (  # "younger than average": the measure the adjective names
        "dorm_1",
        "What is the first and last name of all students who are younger than average?",
        "SELECT Fname, LName FROM Student WHERE Age < (SELECT AVG(Age) FROM Student)",
    ),
    (  # "the average checking balance": the measure past its table's name
        "small_bank_1",
        "What are the names of customers with checking balances lower than the average "
        "checking balance?",
        "SELECT T1.name FROM ACCOUNTS AS T1 JOIN CHECKING AS T2 ON T1.custid = T2.custid "
        "WHERE T2.balance < (SELECT AVG(balance) FROM CHECKING)",
    ),
    (  # each property by its key: no name of its own, and other rows counted per row
        "local_govt_and_lot",
        "How many residents does each property have? List property id and resident count.",
        "SELECT T1.property_id, COUNT(*) FROM Properties AS T1 JOIN Residents AS T2 "
        "ON T1.property_id = T2.property_id GROUP BY T1.property_id",
    ),
    (  # "the oldest host": an age stored as text that holds numbers
        "party_host",
        "Show the name and the nationality of the oldest host.",
        "SELECT Name, Nationality FROM host ORDER BY CAST(Age AS SIGNED) DESC LIMIT 1",
    ),
    (  # "the oldest order": the earliest date, where nothing has an age
        "tracking_orders",
        "Find the order id and customer id associated with the oldest order.",
        "SELECT order_id, customer_id FROM Orders ORDER BY date_order_placed LIMIT 1",
    ),
    (  # "the class of races that is most common": the column before "of the table"
        "race_track",
        "Give the class of races that is most common.",
        "SELECT Class FROM race GROUP BY Class ORDER BY COUNT(*) DESC LIMIT 1",
    ),
    (  # a number after "top" is how many rows, not a value of the column after it
        "county_public_safety",
        "List the names of the city with the top 5 white percentages.",
        "SELECT Name FROM city ORDER BY White DESC LIMIT 5",
    ),
    (  # "the most recent crime": the latest of the rows' years
        "perpetrator",
        "In which year did the most recent crime happen?",
        "SELECT MAX(Year) FROM perpetrator",
    ),
    (  # a column that holds 'Yes' or 'No', said of the rows, negated
        "medicine_enzyme_interaction",
        "How many medicines were not approved by the FDA?",
        "SELECT COUNT(*) FROM medicine WHERE FDA_approved = 'No'",
    ),
    (  # the same column named as a column is no yes-or-no of the rows
        "medicine_enzyme_interaction",
        "How many medicines have the FDA approval status 'No' ?",
        "SELECT COUNT(*) FROM medicine WHERE FDA_approved = 'No'",
    ),
    (  # a kind of column said of a table is that table's: `Visitors`.`Tourist_Details`
        "cre_Theme_park",
        "Show details of all visitors.",
        "SELECT Tourist_Details FROM Visitors",
    ),
    (  # "of the most recent order": the table past its adjectives
        "tracking_orders",
        "What is the id of the most recent order?",
        "SELECT order_id FROM Orders ORDER BY date_order_placed DESC LIMIT 1",
    ),
    (  # "phone numbers": a kind word right after a column is that column's
        "customer_deliveries",
        "Find the names and phone numbers of customers living in California state.",
        "SELECT T1.customer_name, T1.customer_phone FROM Customers AS T1 "
        "JOIN Customer_Addresses AS T2 ON T1.customer_id = T2.customer_id "
        "JOIN Addresses AS T3 ON T2.address_id = T3.address_id "
        "WHERE T3.state_province_county = 'California'",
    ),
    (  # aggregates listed with commas, each of the one measure
        "hospital_1",
        "Tell me the highest, lowest, and average cost of procedures.",
        "SELECT MAX(Cost), MIN(Cost), AVG(Cost) FROM Procedures",
    ),
    (  # aggregates listed each with its measure
        "hospital_1",
        "What are the highest cost, lowest cost and average cost of procedures?",
        "SELECT MAX(Cost), MIN(Cost), AVG(Cost) FROM Procedures",
    ),
    (  # "the details" where no column is so called: everything stored about the rows
        "phone_1",
        "Find the details for all chip models.",
        "SELECT * FROM chip_model",
    ),
    (  # a second bound after "or", with no measure of its own: the same measure
        "candidate_poll",
        "find the names of people who are taller than 200 or lower than 190.",
        "SELECT Name FROM people WHERE Height > 200 OR Height < 190",
    ),
    (  # "who earn below 6000": the measure the verb names
        "hr_1",
        "List the full name (first and last name), and salary for those employees who earn "
        "below 6000.",
        "SELECT first_name, last_name, salary FROM employees WHERE salary < 6000",
    ),
    (  # "belong" is a verb, not a stored value
        "chinook_1",
        "What is the total number of tracks that belong to the blues genre?",
        "SELECT COUNT(*) FROM Track AS T1 JOIN Genre AS T2 ON T1.GenreId = T2.GenreId "
        "WHERE T2.Name = 'Blues'",
    ),
    (  # grouped by a lookup table's key, each group is one row: the rows that refer to it
        "behavior_monitoring",
        "Which incident type code occurs the least often?",
        "SELECT incident_type_code FROM Behavior_Incident GROUP BY incident_type_code "
        "ORDER BY COUNT(*) LIMIT 1",
    ),
    (  # "for each A and B": both are groups, and both are shown beside the count
        "film_rank",
        "For each studio and director, how many films are there?",
        "SELECT Studio, Director, COUNT(*) FROM film GROUP BY Studio, Director",
    ),
    (  # a table named after the missing rows is theirs, not joined outside (no row left)
        "workshop_paper",
        "Show the authors of submissions that have no acceptance at any workshop.",
        "SELECT Author FROM submission WHERE Submission_ID NOT IN "
        "(SELECT Submission_ID FROM Acceptance)",
    ),
    (  # "prior to" bounds the year from above
        "theme_gallery",
        "Which artists joined prior to 1990? Give their names.",
        "SELECT Name FROM artist WHERE Year_Join < 1990",
    ),
    (  # "records" are the rows counted, not something the schema must hold
        "film_rank",
        "Give the number of records for each studio.",
        "SELECT Studio, COUNT(*) FROM film GROUP BY Studio",
    ),
    (  # quoted text a name begins with is searched for, not a stored value of another column
        "flight_4",
        "Give the callsigns of the airlines whose names begin with 'Orbit'.",
        "SELECT callsign FROM airlines WHERE name LIKE 'Orbit%'",
    ),
    (  # a count per product is of the lines it is ordered on, never of the product (1)
        "tracking_orders",
        "Show every product's name together with how many order items it appears in.",
        "SELECT p.product_name, COUNT(*) FROM Products p JOIN Order_Items i "
        "ON p.product_id = i.product_id GROUP BY p.product_name",
    ),
    (  # the words counted end at the verb: the kinds of game, not games grouped by kind
        "game_1",
        "How many video game types exist in the collection?",
        "SELECT COUNT(DISTINCT GType) FROM Video_Games",
    ),
    (  # "of the products" after two aggregates: what they are over, not a grouping
        "product_catalog",
        "Give me the maximum and the average price in dollars of the products.",
        "SELECT MAX(price_in_dollars), AVG(price_in_dollars) FROM Catalog_Contents",
    ),
    (  # "movie ratings": ratings (which refer to movies) are what is counted
        "movie_1",
        "How many movie ratings have at least 4 stars?",
        "SELECT COUNT(*) FROM Rating WHERE stars >= 4",
    ),
    (  # the counted rows have the votes the question names: that key is the join
        "voter_2",
        "How many female students have class president votes?",
        "SELECT COUNT(DISTINCT s.StuID) FROM Student s JOIN Voting_record v "
        "ON s.StuID = v.Class_President_Vote WHERE s.Sex = 'F'",
    ),
    (  # "total" listed with another aggregate is the sum, not a column called total_...
        "school_finance",
        "Give the total and the average enrollment over every school.",
        "SELECT SUM(Enrollment), AVG(Enrollment) FROM School",
    ),
    (  # "total number of" a measure is its sum, not the column Total_Passengers
        "aircraft",
        "What is the total number of international passengers of all airports?",
        "SELECT SUM(International_Passengers) FROM airport",
    ),
    (  # "or younger" after a number bounds it, as "younger than" does
        "aircraft",
        "Which pilots are aged 28 or younger? Give their names.",
        "SELECT Name FROM pilot WHERE Age <= 28",
    ),
    (  # excepting rows of the value's own table leaves that value out
        "small_bank_1",
        "What is the total checking balance of all accounts excluding the account with "
        "name 'Brown'?",
        "SELECT SUM(c.balance) FROM ACCOUNTS a JOIN CHECKING c ON a.custid = c.custid "
        "WHERE a.name <> 'Brown'",
    ),
    (  # a value said right after its column's name is that column's, though another holds it
        "election",
        "List the years in which the governor was 'Eliot Spitzer'.",
        "SELECT Year FROM party WHERE Governor = 'Eliot Spitzer'",
    ),
    (  # "the greatest number of times": each one's rows counted, the most first
        "e_government",
        "Give the email of the party that used party services the greatest number of times.",
        "SELECT p.party_email FROM Parties p JOIN Party_Services s "
        "ON p.party_id = s.customer_id GROUP BY p.party_email ORDER BY COUNT(*) DESC LIMIT 1",
    ),
    (  # rows with none in the table that pairs them with what is missing (train_station)
        "train_station",
        "Give the names of the stations that have no trains.",
        "SELECT Name FROM station WHERE Station_ID NOT IN (SELECT Station_ID FROM train_station)",
    ),
    (  # what is missing said as its table's key (Allergy_Type.Allergy), paired by Has_Allergy
        "allergy_1",
        "Which students have no allergies? Give their ids.",
        "SELECT StuID FROM Student WHERE StuID NOT IN (SELECT StuID FROM Has_Allergy)",
    ),
    (  # a full name quoted whole, stored as a first and a last name
        "driving_school",
        'What is the email address of the customer "Carole Bernhard"?',
        "SELECT email_address FROM Customers WHERE first_name = 'Carole' "
        "AND last_name = 'Bernhard'",
    ),
    (  # "more than two records": the rows of each, counted
        "election",
        "List each party name that has more than two records.",
        "SELECT Party FROM party GROUP BY Party HAVING COUNT(*) > 2",
    ),
    (  # one total over the rows at a superlative's extreme, not rows in an order
        "dorm_1",
        "What is the total age of the students who live in the dorm with the largest "
        "student capacity?",
        "SELECT SUM(s.Age) FROM Student s JOIN Lives_in l ON s.StuID = l.stuid JOIN Dorm d "
        "ON l.dormid = d.dormid WHERE d.student_capacity = (SELECT MAX(student_capacity) "
        "FROM Dorm)",
    ),
    (  # "end with" says the match; it names no column (job_history.END_DATE)
        "hr_1",
        "List the last names of employees whose first names end with the letter n.",
        "SELECT LAST_NAME FROM employees WHERE FIRST_NAME LIKE '%n'",
    ),
    (  # an id said as a number: "department number" is DEPARTMENT_ID
        "hr_1",
        "Show the first name and department number of the employees whose last name is 'Ernst'.",
        "SELECT FIRST_NAME, DEPARTMENT_ID FROM employees WHERE LAST_NAME = 'Ernst'",
    ),
    (  # "color description" names a column; "of the" joins names, it names nothing
        "products_gen_characteristics",
        "What is the color description of the product named 'cumin'?",
        "SELECT c.color_description FROM Products p JOIN Ref_Colors c "
        "ON p.color_code = c.color_code WHERE p.product_name = 'cumin'",
    ),
    (  # a camel-case name said as one word: WiFi is "wifi"
        "phone_1",
        "Show the wifi and bluetooth of every chip model launched in 2004.",
        "SELECT WiFi, Bluetooth FROM chip_model WHERE Launch_year = 2004",
    ),
    (  # "courses" names Courses, not Course_Authors_and_Tutors: the personal names are
        # the students'
        "e_learning",
        "Which students take at least two courses? Show the student id and the personal name.",
        "SELECT s.student_id, s.personal_name FROM Students s JOIN Student_Course_Enrolment e "
        "ON s.student_id = e.student_id GROUP BY s.student_id, s.personal_name "
        "HAVING COUNT(*) >= 2",
    ),
    (  # "items" as likely Order_Items as Invoice_Line_Items: the one joined to the orders
        "customers_and_invoices",
        "For every order, list its id and the number of items in it.",
        "SELECT order_id, COUNT(*) FROM Order_Items GROUP BY order_id",
    ),
    (  # "4 or 5 stars": either value of the number column after them
        "movie_1",
        "Which movies got 4 or 5 stars? Give their titles.",
        "SELECT m.title FROM Movie m JOIN Rating r ON m.mID = r.mID WHERE r.stars IN (4, 5)",
    ),
    (  # "most recently": the latest of the date the verb before it names
        "tracking_orders",
        "Which order was placed most recently? Show its id.",
        "SELECT order_id FROM Orders ORDER BY date_order_placed DESC LIMIT 1",
    ),
    (  # missing amenities said as the pairing table's key column (Has_amenity.amenid)
        "dorm_1",
        "How many dorms don't have any amenities?",
        "SELECT COUNT(*) FROM Dorm WHERE dormid NOT IN (SELECT dormid FROM Has_amenity)",
    ),
    (  # "minimum salary" is the column `MIN_SALARY`, not the least of another salary
        "hr_1",
        "What is the minimum salary of the job titled President?",
        "SELECT min_salary FROM jobs WHERE job_title = 'President'",
    ),
    (
        "hr_1",
        "Show the job titles whose minimum salary is below 4000.",
        "SELECT job_title FROM jobs WHERE min_salary < 4000",
    ),
    (  # "the description of the document status": document_status_description
        "cre_Doc_Control_Systems",
        "Give the description of the document status 'working'.",
        "SELECT document_status_description FROM Ref_Document_Status "
        "WHERE document_status_code = 'working'",
    ),
    (  # "attraction type" said once for both heads: not another table's description
        "cre_Theme_park",
        "What are the attraction type codes and descriptions?",
        "SELECT attraction_type_code, attraction_type_description FROM Ref_Attraction_Types",
    ),
    (  # the superlative picks the county that holds the cities asked about: all its cities
        "county_public_safety",
        "List the names of the cities in the county with the highest crime rate.",
        "SELECT Name FROM city WHERE County_ID = "
        "(SELECT County_ID FROM county_public_safety ORDER BY Crime_rate DESC LIMIT 1)",
    ),
    (  # "their names": of the employees the question asks about, not of their role
        "cre_Doc_Tracking_DB",
        'Which employees have the role coded "PR"? Show their names.',
        "SELECT Employee_Name FROM Employees WHERE Role_Code = 'PR'",
    ),
    (  # a full name said side by side is one employee's: not a customer's first name
        "store_1",
        "List the last names of the customers Steve Johnson looks after.",
        "SELECT c.last_name FROM customers c JOIN employees e ON c.support_rep_id = e.id "
        "WHERE e.first_name = 'Steve' AND e.last_name = 'Johnson'",
    ),
    (  # "the names of the cities": the city column beside the airports' names
        "flight_4",
        "List the names of the cities that have at least eight airports.",
        "SELECT city FROM airports GROUP BY city HAVING COUNT(*) >= 8",
    ),
    (  # a negated value of rows the patients have many of: none of theirs has it
        "hospital_1",
        "Count the patients who are not using Awakin as medication.",
        "SELECT COUNT(*) FROM Patient WHERE SSN NOT IN (SELECT p.Patient FROM Prescribes p "
        "JOIN Medication m ON p.Medication = m.Code WHERE m.Name = 'Awakin')",
    ),
    (
        "film_rank",
        "How many films are not estimated in the market Japan?",
        "SELECT COUNT(*) FROM film WHERE Film_ID NOT IN (SELECT e.Film_ID FROM "
        "film_market_estimation e JOIN market m ON e.Market_ID = m.Market_ID "
        "WHERE m.Country = 'Japan')",
    ),
    (  # "never prescribed Thesisin": no prescription of it, not no prescription at all
        "hospital_1",
        "List the names of patients who were never prescribed Thesisin.",
        "SELECT Name FROM Patient WHERE SSN NOT IN (SELECT p.Patient FROM Prescribes p "
        "JOIN Medication m ON p.Medication = m.Code WHERE m.Name = 'Thesisin')",
    ),
    (  # the parties keep their count of hosts (Number_of_hosts): it is what orders them
        "party_host",
        "Show the theme of the party that had the most hosts.",
        "SELECT Party_Theme FROM party ORDER BY Number_of_hosts DESC LIMIT 1",
    ),
    (  # "in the range of ... and ...": between the two; "phone number" is a column, no count
        "hr_1",
        "What are the phone numbers of employees whose salary is in the range of 9000 and 10000?",
        "SELECT phone_number FROM employees WHERE salary BETWEEN 9000 AND 10000",
    ),
    (  # "the checking and savings balances": each table's balance, not the savings' alone
        "small_bank_1",
        "Show the checking and savings balances of the account named Wang.",
        "SELECT c.balance, s.balance FROM ACCOUNTS a JOIN CHECKING c ON a.custid = c.custid "
        "JOIN SAVINGS s ON a.custid = s.custid WHERE a.name = 'Wang'",
    ),
    (  # Participants_in_Events pairs its two parents: the participants are counted in it
        "local_govt_in_alabama",
        "How many participants attended each event? Show the event id and the count.",
        "SELECT Event_ID, COUNT(*) FROM Participants_in_Events GROUP BY Event_ID",
    ),
]


ORDERED_READINGS = [
    (  # "from the ... to the ...": every row in that order, not the one at the top
        "swimming",
        "List the names of the events from the oldest to the most recent.",
        "SELECT Name FROM event ORDER BY Year",
    ),
    (  # "3 counties": the number before the rows asked about is how many to keep
        "county_public_safety",
        "Give the names of 3 counties that have the most police officers.",
        "SELECT Name FROM county_public_safety ORDER BY Police_officers DESC LIMIT 3",
    ),
    (  # the table asked about "is the most frequent": its rows counted by their label
        "allergy_1",
        "What allergy type is the most frequent?",
        "SELECT AllergyType FROM Allergy_Type GROUP BY AllergyType ORDER BY COUNT(*) DESC LIMIT 1",
    ),
    (  # "by increasing" a column: ordered by it, not by the names shown
        "company_employee",
        "Show the company names by increasing profits.",
        "SELECT Name FROM company ORDER BY Profits_in_Billion",
    ),
    (  # ordered by an aggregate of a measure, per row; "sorted by" alone is lowest first
        "film_rank",
        "List the studios sorted by average gross.",
        "SELECT Studio, AVG(Gross_in_dollar) FROM film GROUP BY Studio "
        "ORDER BY AVG(Gross_in_dollar)",
    ),
    (  # a superlative of an aggregate: the groups with the highest total
        "film_rank",
        "Which three studios have the highest total gross?",
        "SELECT Studio, SUM(Gross_in_dollar) FROM film GROUP BY Studio "
        "ORDER BY SUM(Gross_in_dollar) DESC LIMIT 3",
    ),
    (  # "taller": the one height of the schema, in a table of people the question joins
        "gymnast",
        "List the total points of gymnasts who are taller than 1.74.",
        "SELECT g.Total_Points FROM gymnast g JOIN people p ON g.Gymnast_ID = p.People_ID "
        "WHERE p.Height > 1.74",
    ),
    (  # "in descending order of": its words name no column (`aircraft.Order_Year`)
        "pilot_record",
        "Give the pilot names in descending order of their age.",
        "SELECT Pilot_name FROM pilot ORDER BY Age DESC",
    ),
    (  # "in terms of" a total orders as "by" does
        "film_rank",
        "List the top two studios in terms of the total gross.",
        "SELECT Studio FROM film GROUP BY Studio ORDER BY SUM(Gross_in_dollar) DESC LIMIT 2",
    ),
    (  # "order" after "alphabetical" names no table (Orders); "reverse" is Z to A
        "tracking_orders",
        "List every customer name in reverse alphabetical order.",
        "SELECT customer_name FROM Customers ORDER BY customer_name DESC",
    ),
    (  # "ordered by alphabetical order" names no column: the rows shown, A to Z
        "hospital_1",
        "List the names of the physicians ordered by alphabetical order.",
        "SELECT Name FROM Physician ORDER BY Name",
    ),
    (  # "highest ... first" after "sorted by" orders; it keeps no single row
        "manufactory_1",
        "List the manufacturers' names, sorted by the ones with the largest revenue first.",
        "SELECT Name, Revenue FROM Manufacturers ORDER BY Revenue DESC, Code",
    ),
    (  # "from high to low" is the direction of the order "by cost" names
        "hospital_1",
        "List the names of the procedures ordered by cost from high to low.",
        "SELECT Name FROM Procedures ORDER BY Cost DESC",
    ),
]

# A negation said of what a column holds: each value no row meeting the rest holds.
SPIDER_READINGS += [
    (
        "school_bus",
        "Which home cities have no driver from the Rep party?",
        "SELECT Home_city FROM driver EXCEPT SELECT Home_city FROM driver WHERE Party = 'Rep'",
    ),
    (
        "film_rank",
        "Which directors have never made a film for Paramount?",
        "SELECT Director FROM film EXCEPT SELECT Director FROM film WHERE Studio = 'Paramount'",
    ),
    (
        "gas_company",
        "Which main industries have no company based in China?",
        "SELECT Main_Industry FROM company "
        "EXCEPT SELECT Main_Industry FROM company WHERE Headquarters = 'China'",
    ),
    (  # "is not" before a value is of the value; "drivers who are not" of the rows
        "sports_competition",
        "What years had competitions whose type is not Friendly?",
        "SELECT Year FROM competition WHERE Competition_type <> 'Friendly'",
    ),
    (
        "school_bus",
        "List the names of drivers who are not from the Rep party.",
        "SELECT Name FROM driver WHERE Party <> 'Rep'",
    ),
]

# Aggregates listed before "all" and the column: each of the column.
SPIDER_READINGS += [
    (
        "insurance_fnol",
        "What are the largest and smallest of all settlement amounts?",
        "SELECT MAX(Settlement_Amount), MIN(Settlement_Amount) FROM Settlements",
    ),
]

# A person's table is the people's: "students" join their addresses through `People`.
SPIDER_READINGS += [
    (
        "student_assessment",
        "Which cities do students have addresses in?",
        "SELECT a.city FROM Students s JOIN People_Addresses p ON s.student_id = p.person_id "
        "JOIN Addresses a ON p.address_id = a.address_id",
    ),
]

# Two values each some row must hold (INTERSECT): numbers joined by "and" after "both";
# each half shows the rows asked about, not a column of the rows paired with them.
SPIDER_READINGS += [
    (
        "culture_company",
        "Which publishers put out books in both 1989 and 1990?",
        "SELECT Publisher FROM book_club WHERE Year = 1989 "
        "INTERSECT SELECT Publisher FROM book_club WHERE Year = 1990",
    ),
    (  # after "or", either value
        "culture_company",
        "Which publishers had a book in either 1989 or 1990?",
        "SELECT Publisher FROM book_club WHERE Year = 1989 OR Year = 1990",
    ),
    (
        "dorm_1",
        "List the names of dorms that have both Air Conditioning and Ethernet Ports as amenities.",
        "SELECT d.dorm_name FROM Dorm d JOIN Has_amenity h ON d.dormid = h.dormid "
        "JOIN Dorm_amenity a ON h.amenid = a.amenid WHERE a.amenity_name = 'Air Conditioning' "
        "INTERSECT SELECT d.dorm_name FROM Dorm d JOIN Has_amenity h ON d.dormid = h.dormid "
        "JOIN Dorm_amenity a ON h.amenid = a.amenid WHERE a.amenity_name = 'Ethernet Ports'",
    ),
]

# A negation no other reading took, before conditions: rows with no such row of theirs.
SPIDER_READINGS += [
    (
        "program_share",
        "What are the names of programs that are not broadcast at noon?",
        "SELECT Name FROM program EXCEPT SELECT p.Name FROM program p "
        "JOIN broadcast b ON p.Program_ID = b.Program_ID WHERE b.Time_of_day = 'Noon'",
    ),
    (
        "aircraft",
        "Which pilots have not won a match held in Hungary? Give their names.",
        "SELECT Name FROM pilot WHERE Pilot_Id NOT IN "
        "(SELECT Winning_Pilot FROM `match` WHERE Country = 'Hungary')",
    ),
    (  # a bound after the missing rows' word is theirs, not the physician's
        "hospital_1",
        "Which physicians are not trained in any procedure that costs more than 5000? "
        "Give their names.",
        "SELECT Name FROM Physician WHERE EmployeeID NOT IN (SELECT t.Physician "
        "FROM Trained_In t JOIN Procedures p ON t.Treatment = p.Code WHERE p.Cost > 5000)",
    ),
]

SPIDER_READINGS += [
    (  # with no age, the youngest rows are the latest formed
        "e_government",
        "Which organization is the youngest? Give its name.",
        "SELECT organization_name FROM Organizations ORDER BY date_formed DESC LIMIT 1",
    ),
    (  # and the latest born
        "store_1",
        "What is the email of the youngest employee?",
        "SELECT email FROM employees ORDER BY birth_date DESC LIMIT 1",
    ),
    (  # the pilot's age, not the `Winning_Pilot` key that names the pilot
        "aircraft",
        "What is the name of the oldest winning pilot?",
        "SELECT p.Name FROM pilot p JOIN `match` m ON p.Pilot_Id = m.Winning_Pilot "
        "ORDER BY p.Age DESC LIMIT 1",
    ),
]

SPIDER_READINGS += [
    (  # "how many" of a column that holds a count: the rows' total
        "inn_1",
        "How many queen beds do the rooms have altogether?",
        "SELECT SUM(beds) FROM Rooms WHERE bedType = 'Queen'",
    ),
    (
        "inn_1",
        "How many beds do the rooms with modern decor have?",
        "SELECT SUM(beds) FROM Rooms WHERE decor = 'modern'",
    ),
    (  # rows kept are ranked by the count asked beside them, most first
        "store_1",
        "How many invoices does each billing country have, and which are the top 4?",
        "SELECT billing_country, COUNT(*) FROM invoices GROUP BY billing_country "
        "ORDER BY COUNT(*) DESC LIMIT 4",
    ),
    (  # "in terms of" names what ranks them
        "inn_1",
        "Which are the top 2 rooms in terms of base price?",
        "SELECT roomName FROM Rooms ORDER BY basePrice DESC LIMIT 2",
    ),
    (  # a number before a superlative keeps rows; it is no star rating '2'
        "cre_Theme_park",
        "Give the price ranges of the 2 most expensive hotels.",
        "SELECT price_range FROM Hotels ORDER BY price_range DESC LIMIT 2",
    ),
]

SPIDER_READINGS += [
    (  # "latest" is a word of `date_of_latest_revision`: part of its name, no order
        "product_catalog",
        "What are the latest revision dates of the catalogs?",
        "SELECT date_of_latest_revision FROM Catalogs",
    ),
    (  # nor an aggregate over the rows the names pick
        "product_catalog",
        "Find the latest revision date of the catalogs called Jam or Latte.",
        "SELECT date_of_latest_revision FROM Catalogs WHERE catalog_name IN ('Jam', 'Latte')",
    ),
    (  # a row picked by it still is: "has the latest"
        "product_catalog",
        "Which catalog has the latest revision date?",
        "SELECT date_of_latest_revision FROM Catalogs ORDER BY date_of_latest_revision DESC "
        "LIMIT 1",
    ),
    (  # a negation before values joined by "or" is of each: neither type
        "apartment_rentals",
        "Give the numbers of the apartments whose type is not Flat or Studio.",
        "SELECT apt_number FROM Apartments WHERE apt_type_code NOT IN ('Flat', 'Studio')",
    ),
    (  # so through the rows they have many of: no allergy of either type
        "allergy_1",
        "Which students are not allergic to anything of type animal or environmental? "
        "Give their last names.",
        "SELECT LName FROM Student WHERE StuID NOT IN (SELECT h.StuID FROM Has_Allergy h "
        "JOIN Allergy_Type a ON h.Allergy = a.Allergy "
        "WHERE a.AllergyType IN ('animal', 'environmental'))",
    ),
    (  # a number right after a numeric column is its value, not a stored text '9'
        "product_catalog",
        "List the catalog entry names with level number 9.",
        "SELECT catalog_entry_name FROM Catalog_Contents WHERE catalog_level_number = 9",
    ),
    (  # a column holding another's key, said with "name": the name of the row it refers to
        "aircraft",
        "Show the winning pilot name and the country of every match.",
        "SELECT p.Name, m.Country FROM `match` m JOIN pilot p ON m.Winning_Pilot = p.Pilot_Id",
    ),
    (  # "the number of tracks" compared: the tracks of each genre, counted (HAVING)
        "store_1",
        "Give the names of the genres whose number of tracks is more than 300.",
        "SELECT g.name FROM genres g JOIN tracks t ON t.genre_id = g.id GROUP BY g.id, g.name "
        "HAVING COUNT(*) > 300",
    ),
    (  # "number" or "numbered" between a numeric column and a number: that column's value
        "game_1",
        "Give the last names of the students whose advisor is numbered 2192.",
        "SELECT LName FROM Student WHERE Advisor = 2192",
    ),
    (  # the highest rank is the first place: rank 1
        "pilot_record",
        "Give the name and team of the pilot with the highest rank.",
        "SELECT Pilot_name, Team FROM pilot ORDER BY `Rank` LIMIT 1",
    ),
]

# Readings of this round, each in new words.
NEW_READINGS = [
    (  # a word of a column's own name that the column stores is its value
        "products_for_hire",
        "Show the last names of the good customers.",
        "SELECT last_name FROM Customers WHERE good_or_bad_customer = 'good'",
    ),
    (  # quoted text a column "has": searched for inside it
        "store_1",
        "Give the titles of the albums whose title has 'Greatest'.",
        "SELECT title FROM albums WHERE title LIKE '%Greatest%'",
    ),
    (  # "from the most recent to the oldest": every row, in that order
        "swimming",
        "List the names of the events, from the most recent to the oldest.",
        "SELECT Name FROM event",
    ),
    (  # a negated column of the table that refers to the rows: none of its rows do
        "election",
        "Show the names of the parties that have no delegates at all.",
        "SELECT Party FROM party WHERE Party_ID NOT IN (SELECT Party FROM election)",
    ),
    (  # a number said of a column across "that is not"
        "hr_1",
        "Give the first names of employees with a manager id that is not 100.",
        "SELECT first_name FROM employees WHERE manager_id <> 100",
    ),
    (  # "the names of authors": the author column, not the name of a table only "names" names
        "workshop_paper",
        "Give the names of authors from the college Notre Dame.",
        "SELECT Author FROM submission WHERE College = 'Notre Dame'",
    ),
    (  # a bound on a text column said in the plural: how many rows each group has
        "match_season",
        "Which positions have at least two players?",
        "SELECT Position FROM match_season GROUP BY Position HAVING COUNT(*) >= 2",
    ),
    (  # how many of each of two values: a count per value, not the counts both share
        "dorm_1",
        "How many students are female and how many are male?",
        "SELECT Sex, COUNT(*) FROM Student WHERE Sex IN ('F', 'M') GROUP BY Sex",
    ),
    (  # a number no word names the column of: the one number column that stores it
        "restaurant_1",
        "Which students are majoring in 550? Give their first names.",
        "SELECT Fname FROM Student WHERE Major = 550",
    ),
    (  # ... of the table the question is about ("room" is part of `Classroom`)
        "student_1",
        "Give the first names of the students in room 103.",
        "SELECT FirstName FROM list WHERE Classroom = 103",
    ),
    (  # a number of rows with no bound said is the count each group has
        "match_season",
        "Which positions have 3 players?",
        "SELECT Position FROM match_season GROUP BY Position HAVING COUNT(*) = 3",
    ),
    (  # "N times": the count of rows each group has
        "hr_1",
        "Which job ids appear 2 times in the job history?",
        "SELECT job_id FROM job_history GROUP BY job_id HAVING COUNT(*) = 2",
    ),
    (
        "race_track",
        "List the names of the tracks with 2 races.",
        "SELECT t.Name FROM track t JOIN race r ON r.Track_ID = t.Track_ID "
        "GROUP BY t.Track_ID, t.Name HAVING COUNT(*) = 2",
    ),
]


READINGS = [(*reading, False) for reading in SPIDER_READINGS + NEW_READINGS] + [
    (*reading, True) for reading in ORDERED_READINGS
]


@pytest.mark.parametrize(("db", "question", "gold", "ordered"), READINGS)
def test_a_spider_database_is_read_in_plain_words(
    db: str, question: str, gold: str, ordered: bool, settings: Any
) -> None:
    url = _spider_url(db, settings)
    answer = _asked(question, url)
    assert answer.status == "answered", answer.reason
    assert matches(_gold(gold, url), answer.rows, ordered=ordered), answer.sql


def test_a_number_of_rows_asked_for_is_no_stored_value(settings: Any) -> None:
    """ "the 3 oldest players": how many to keep, though a column of the table stores 3."""
    url = _spider_url("school_player", settings)
    answer = _asked("What are the teams of the 3 oldest players?", url)
    assert answer.status == "answered", answer.reason
    assert "LIMIT 3" in answer.sql and "= 3" not in answer.sql


def test_a_number_of_times_said_before_a_measure_is_no_count(settings: Any) -> None:
    """ "3 times the average": a multiple, not rows that occur three times."""
    url = _spider_url("hr_1", settings)
    answer = _asked("Which employees earn 3 times the average salary?", url)
    assert "COUNT(*) = 3" not in (answer.sql or "")


def test_tables_that_only_share_a_parent_no_one_names_are_not_joined(settings: Any) -> None:
    """`player` and `match_season` both refer to `team`; a player's years played are not
    those of some other player of their team who went to the college."""
    url = _spider_url("match_season", settings)
    answer = _asked("List the years played of the players who went to college at Duke.", url)
    assert answer.status == "declined"
    assert answer.rows == []
    assert "team" in answer.reason


def test_a_state_of_the_rows_that_nothing_reads_is_not_dropped(settings: Any) -> None:
    """ "Which pilots have been grounded?": every pilot would not answer it."""
    url = _spider_url("pilot_record", settings)
    _declined_naming_a_word(url, "Which pilots have been grounded?",
                            "List the pilots that are retired.")  # fmt: skip
    # with a complement, the complement is the condition
    answer = _asked("Which pilots are in the team Bradley?", url)
    assert answer.status == "answered", answer.reason
    gold = _gold("SELECT Pilot_name FROM pilot WHERE Team = 'Bradley'", url)
    assert matches(gold, answer.rows, ordered=False), answer.sql


def test_a_column_asked_beside_another_that_nothing_reads_is_not_dropped(
    settings: Any,
) -> None:
    """ "the names and hobbies of the pilots": the names alone would not answer it."""
    url = _spider_url("pilot_record", settings)
    _declined_naming_a_word(url, "List the names and hobbies of the pilots.",
                            "Give each pilot's team and the salary.")  # fmt: skip
    # a word of a column's name, or another name for one, is read with it
    answer = _asked("Show the name and rank score of each pilot.", url)
    assert answer.status == "answered", answer.reason
    gold = _gold("SELECT Pilot_name, Rank FROM pilot", url)
    assert matches(gold, answer.rows, ordered=False), answer.sql


def test_a_negation_the_reading_does_not_use_is_not_dropped(settings: Any) -> None:
    """ "chip models launched without wifi": every chip model would answer the opposite."""
    url = _spider_url("phone_1", settings)
    _declined_naming_a_word(url, "Which chip models were launched without wifi?",
                            "List the chip models that never had wifi.")  # fmt: skip
    # a negation the reading uses, and one said twice, are read
    url = _spider_url("pilot_record", settings)
    for question in ("Which pilots are not in the team Bradley?",
                     "Which pilots are no not in the team Bradley?"):  # fmt: skip
        answer = _asked(question, url)
        assert answer.status == "answered", answer.reason
        gold = _gold("SELECT Pilot_name FROM pilot WHERE Team <> 'Bradley'", url)
        assert matches(gold, answer.rows, ordered=False), answer.sql


def test_a_table_word_that_also_names_a_column_of_the_rows_asked_is_that_column(
    settings: Any,
) -> None:
    """ "players" names the `player` table and `match_season.Player`: read as the table,
    the seasons would meet the players only through their teams."""
    url = _spider_url("match_season", settings)
    answer = _asked("Which players went to college at Maryland?", url)
    assert answer.status == "answered", answer.reason
    gold = _gold("SELECT Player FROM match_season WHERE College = 'Maryland'", url)
    assert matches(gold, answer.rows, ordered=False), answer.sql
    # the column still names the rows: shown only when nothing else is asked
    answer = _asked("List the draft classes of players who went to Maryland.", url)
    gold = _gold("SELECT Draft_Class FROM match_season WHERE College = 'Maryland'", url)
    assert matches(gold, answer.rows, ordered=False), answer.sql
    assert "Player" not in answer.sql.split("FROM")[0]


def _declined_naming_a_word(url: str, *questions: str) -> None:
    """Each question is declined with the word nothing placed, and runs nothing."""
    for question in questions:
        answer = _asked(question, url)
        assert answer.status == "declined", answer.sql
        assert "could not place" in answer.reason and answer.rows == []


def _spider_url(db: str, settings: Any) -> str:
    """A shared Spider database, loaded for these tests, read at any confidence."""
    if not (settings.DATASETS_DIR / "spider_train").is_dir():
        pytest.skip(f"the sample datasets are not at {settings.DATASETS_DIR}")
    settings.SQL_LINKED_MIN_CONFIDENCE = 0
    return load_spider_db(db, "mysql://root@127.0.0.1:3306/", database=f"{PREFIX}_{db}")[0].url


def test_rows_ordered_by_frequency_are_counted(settings: Any) -> None:
    url = _spider_url("device", settings)
    answer = _asked("Show the carriers of devices, ordered by frequency descending.", url)
    assert answer.status == "answered", answer.reason
    gold = _gold("SELECT Carrier FROM device GROUP BY Carrier", url)
    assert matches(gold, answer.rows, ordered=False), answer.sql
    assert "ORDER BY COUNT(*) DESC" in answer.sql  # how often each carrier occurs, most first


@pytest.mark.parametrize(
    ("db", "question", "gold"),
    [
        (  # "decreasing" after "by": most first
            "swimming",
            "How many stadiums are there per country? "
            "Order the countries by decreasing number of stadiums.",
            "SELECT Country, COUNT(*) FROM stadium GROUP BY Country",
        ),
        (  # an order that names nothing else: counts in groups go by the count
            "gas_company",
            "How many gas stations are there per location, ordered from most to least?",
            "SELECT Location, COUNT(*) FROM gas_station GROUP BY Location",
        ),
    ],
)
def test_counts_in_groups_are_ordered_by_the_count(
    db: str, question: str, gold: str, settings: Any
) -> None:
    url = _spider_url(db, settings)
    answer = _asked(question, url)
    assert answer.status == "answered", answer.reason
    assert matches(_gold(gold, url), answer.rows, ordered=False), answer.sql
    assert "ORDER BY COUNT(*) DESC" in answer.sql


@pytest.mark.parametrize(
    ("question", "key"),
    [
        (  # a bare direction beside a count shown with labels: by the count
            "Show the different locations and the number of gas stations in each, "
            "in descending order.",
            "COUNT(*) DESC",
        ),
        (
            "List the various locations together with their count of gas stations "
            "in ascending order.",
            "COUNT(*) ASC",
        ),
        (  # alphabetical order is the labels' own
            "List the locations and their number of gas stations in alphabetical order.",
            "`Location` ASC",
        ),
    ],
)
def test_a_bare_direction_beside_a_count_orders_by_the_count(
    question: str, key: str, settings: Any
) -> None:
    url = _spider_url("gas_company", settings)
    answer = _asked(question, url)
    assert answer.status == "answered", answer.reason
    gold = _gold("SELECT Location, COUNT(*) FROM gas_station GROUP BY Location", url)
    assert matches(gold, answer.rows, ordered=False), answer.sql
    ordered_by = answer.sql.split("ORDER BY")[-1].split(" LIMIT ")[0]
    assert ordered_by.strip().endswith(key), answer.sql


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        (  # "companies": no name says it; `Manufacturers` is the table nearest in meaning
            "How many companies have their headquarters in Tokyo?",
            "SELECT COUNT(*) FROM Manufacturers WHERE Headquarter = 'Tokyo'",
        ),
        (
            "Count the different companies whose founder is James.",
            "SELECT COUNT(*) FROM Manufacturers WHERE Founder = 'James'",
        ),
    ],
)
def test_what_a_count_is_of_is_found_among_the_tables_by_meaning(
    question: str, gold: str, settings: Any
) -> None:
    url = _spider_url("manufactory_1", settings)
    answer = _asked(question, url)
    assert answer.status == "answered", answer.reason
    assert matches(_gold(gold, url), answer.rows, ordered=False), answer.sql


def test_a_count_of_things_no_table_means_is_still_declined(settings: Any) -> None:
    url = _spider_url("manufactory_1", settings)
    answer = _asked("How many bicycles were made by Sony?", url)
    assert answer.status == "declined"
    assert "bicycles" in answer.reason


@pytest.mark.parametrize(
    ("question", "shown", "student"),
    [
        (
            "Which teacher teaches the student called KITTIE MOWATT? Give the teacher's last name.",
            "LastName",
            ("KITTIE", "MOWATT"),
        ),
        (
            "What is the first name of the teacher of the pupil named NOVELLA CHIARAMONTE?",
            "FirstName",
            ("NOVELLA", "CHIARAMONTE"),
        ),
    ],
)
def test_tables_that_only_share_a_column_are_joined_by_it(
    question: str, shown: str, student: tuple[str, str], settings: Any
) -> None:
    # No key joins student_1's class list to its teachers; both hold `Classroom`, each
    # teacher's once, and every student's is a teacher's.
    url = _spider_url("student_1", settings)
    answer = _asked(question, url)
    assert answer.status == "answered", answer.reason
    first, last = student
    gold = _gold(
        f"SELECT t.{shown} FROM list l JOIN teachers t ON l.Classroom = t.Classroom "
        f"WHERE l.FirstName = '{first}' AND l.LastName = '{last}'",
        url,
    )
    assert gold and matches(gold, answer.rows, ordered=False), answer.sql


def test_one_total_asked_for_in_an_order_is_declined(settings: Any) -> None:
    url = _spider_url("film_rank", settings)
    # A single SUM over every film has no order and no "top three": the reading missed
    # what the totals are per, so it declines rather than answer one number.
    answer = _asked("What is the total gross of the top three films by rank?", url)
    assert answer.status == "declined"
    assert "one total" in answer.reason


@pytest.mark.parametrize(
    ("db", "question"),
    [
        ("store_1", "Show the top 4 longest-serving employees."),
        ("inn_1", "Find the names of the top 4 luxurious rooms."),
    ],
)
def test_rows_kept_with_nothing_that_ranks_them_are_declined(
    db: str, question: str, settings: Any
) -> None:
    # No column says how long an employee served or how luxurious a room is: any four
    # rows would be a guess.
    answer = _asked(question, _spider_url(db, settings))
    assert answer.status == "declined"
    assert "without knowing what ranks them" in answer.reason


def test_rows_missing_from_a_table_that_holds_them_twice_are_not_guessed(settings: Any) -> None:
    # a friendship holds two people: which side the missing person would be is a guess
    url = _spider_url("network_2", settings)
    _declined_naming_a_word(url, "Which people have no friends at all?")


def test_totals_of_two_kinds_of_rows_at_once_are_declined(settings: Any) -> None:
    # read as two counts on different columns, which share no grouping: intersected, the
    # counts answer nothing
    url = _spider_url("school_finance", settings)
    question = "How many budgets have a budgeted amount above 3000 in year 2001 or before?"
    answer = _asked(question, url)
    assert answer.status == "declined" and "two kinds of rows" in answer.reason


def _linked_sql(db: str, question: str, settings: Any) -> Any:
    """The linked planner's reading of `question` on a Spider database, not run."""
    name, _ = source_for_url(_spider_url(db, settings))
    target = Source.named(name)
    values = stored_values(target.layer, target.url, agent=target.agent_login)
    return plan_linked(question, target.layer, values).statement


def test_the_oldest_of_rows_with_a_year_and_no_date_is_by_their_year(settings: Any) -> None:
    """ "the oldest movie": `Movie.year`, not the date a rating was made."""
    question = "For the ratings of the oldest movie, give the average stars and the movie's title."
    order = _linked_sql("movie_1", question, settings).args["order"].sql()
    assert "year" in order and "ratingDate" not in order


def test_a_us_state_said_in_full_is_the_code_a_column_stores(settings: Any) -> None:
    """ "California" where `Customer.State` holds 'CA'."""
    question = "Give the first names of the customers based in California."
    assert "'CA'" in _linked_sql("chinook_1", question, settings).sql()


def test_a_country_said_by_another_of_its_names_is_the_name_stored(settings: Any) -> None:
    """ "the UK" where `ship.Nationality` holds 'United Kingdom'; "us" is a pronoun."""
    assert (
        "'United Kingdom'"
        in _linked_sql(
            "ship_mission", "Count the ships whose nationality is the UK.", settings
        ).sql()
    )
    assert (
        "United States"
        not in _linked_sql("ship_mission", "Tell us how many ships there are.", settings).sql()
    )


def test_a_country_said_by_its_peoples_adjective_is_the_country_stored(settings: Any) -> None:
    """ "American ships" where `ship.Nationality` holds 'United States', not a word of the
    schema left unplaced."""
    found = _linked_sql("ship_mission", "List the names of the American ships.", settings).sql()
    assert "'United States'" in found and "'United Kingdom'" not in found
    british = _linked_sql("ship_mission", "How many British ships are there?", settings).sql()
    assert "'United Kingdom'" in british


def test_a_plural_of_a_stored_name_is_that_value(settings: Any) -> None:
    """ "midfielders" where `match_season.Position` holds 'Midfielder'."""
    found = _linked_sql("match_season", "Which colleges did the midfielders come from?", settings)
    assert "'Midfielder'" in found.sql()


def test_a_comparative_right_before_a_number_is_its_bound(settings: Any) -> None:
    """ "a salary greater 10000": "than" left out, the bound is still said."""
    question = "Give the first names of employees with a salary greater 10000."
    assert "> 10000" in _linked_sql("hr_1", question, settings).sql()


def test_a_word_a_number_bounds_is_linked_by_meaning_among_the_number_columns(
    settings: Any,
) -> None:
    """ "whose altitude is under 10" where `airports` has `elevation` and no altitude."""
    found = _linked_sql(
        "flight_4", "List the names of airports whose altitude is under 10.", settings
    )
    assert "`elevation` < 10" in found.sql(dialect="mysql")


def test_a_sorting_verb_whose_key_comes_after_the_rows_sorted_orders_by_it(settings: Any) -> None:
    """ "Sort all of the employees according to their salary": the key follows the rows."""
    question = "Sort all of the employees according to their salary, showing first names."
    order = _linked_sql("hr_1", question, settings).args["order"].sql()
    assert "SALARY" in order


def test_a_table_said_after_a_negation_is_of_the_missing_rows(settings: Any) -> None:
    """ "shop names that have no device in stock": the shops, none of whose rows are in
    stock."""
    question = "Show the shop names that have no device in stock."
    found = _linked_sql("device", question, settings).sql(dialect="mysql")
    assert found.startswith("SELECT `t1`.`Shop_Name` FROM `shop`")
    assert "NOT `t1`.`Shop_ID` IN (SELECT `m`.`Shop_ID` FROM `stock`" in found


def test_missing_rows_with_a_condition_are_found_through_the_table_pairing_them(
    settings: Any,
) -> None:
    """ "trains that pass no station located in Glasgow": no `train_station` row pairs the
    train with a Glasgow station."""
    question = "Give the names of trains that pass no station located in Glasgow."
    url = _spider_url("train_station", settings)
    found = _linked_sql("train_station", question, settings).sql(dialect="mysql")
    gold = (
        "SELECT name FROM train WHERE train_id NOT IN (SELECT s.train_id FROM train_station s "
        "JOIN station t ON s.station_id = t.station_id WHERE t.location = 'Glasgow')"
    )
    assert sorted(_gold(found, url)) == sorted(_gold(gold, url))


def test_a_key_of_the_missing_rows_asked_for_is_the_key_it_refers_to(settings: Any) -> None:
    """ "employee ids that have no job history": `employees`' ids, not `job_history`'s."""
    question = "List the employee ids that have no job history."
    found = _linked_sql("hr_1", question, settings).sql(dialect="mysql")
    assert found.startswith("SELECT `t1`.`EMPLOYEE_ID` FROM `employees`")


def test_rows_counted_beside_missing_rows_are_still_joined(settings: Any) -> None:
    """ "customers with at least two accounts but no orders": the accounts are counted, the
    orders missing."""
    url = _spider_url("customers_and_invoices", settings)
    question = "Which customers have at least two accounts but no orders? Give their first names."
    found = _linked_sql("customers_and_invoices", question, settings).sql(dialect="mysql")
    gold = (
        "SELECT customer_first_name FROM Customers WHERE customer_id NOT IN (SELECT customer_id "
        "FROM Orders) AND customer_id IN (SELECT customer_id FROM Accounts GROUP BY customer_id "
        "HAVING COUNT(*) >= 2)"
    )
    assert sorted(_gold(found, url)) == sorted(_gold(gold, url))


def test_of_several_keys_the_missing_rows_refer_by_the_one_the_question_says_is_taken(
    settings: Any,
) -> None:
    """A document to be destroyed names the employee who destroyed it and the one who
    authorised it: "did not authorise" asks about the second."""
    question = "Which employees did not authorise any document destruction? Show employee ids."
    found = _linked_sql("cre_Doc_Tracking_DB", question, settings).sql(dialect="mysql")
    assert "`m`.`Destruction_Authorised_by_Employee_ID`" in found


def test_a_bound_after_or_that_has_its_own_number_is_a_second_bound(settings: Any) -> None:
    """ "below 3000 or above 15000": two bounds, not "3000 or above" and a stray number."""
    question = "List the first names of employees whose salary is below 3000 or above 15000."
    found = _linked_sql("hr_1", question, settings).sql(dialect="mysql")
    assert "`SALARY` < 3000 OR `t1`.`SALARY` > 15000" in found


def test_words_that_also_name_a_table_joined_to_the_rest_are_read_as_it(settings: Any) -> None:
    """ "fault" names `Fault_Log` first, which meets the parts only through assets the
    question never names; it also names `Part_Faults`, the parts' own faults."""
    url = _spider_url("assets_maintenance", settings)
    answer = _asked("Which parts have had more than one fault? Give their names.", url)
    assert answer.status == "answered", answer.reason
    assert "Part_Faults" in answer.sql and "Fault_Log" not in answer.sql
    gold = _gold(
        "SELECT p.part_name FROM Parts p JOIN Part_Faults f ON f.part_id = p.part_id "
        "GROUP BY p.part_id, p.part_name HAVING COUNT(*) > 1",
        url,
    )
    assert gold and matches(gold, answer.rows, ordered=False)


def test_two_things_listed_with_and_are_two_columns(settings: Any) -> None:
    """ "the name and level": "level" alone names the level's name as well, but a list
    asks for two things; it takes the other column of the rows its word names."""
    url = _spider_url("product_catalog", settings)
    answer = _asked(
        "Show the name and level of every catalog structure whose level number is below 9.", url
    )
    assert answer.status == "answered", answer.reason
    gold = _gold(
        "SELECT catalog_level_name, catalog_level_number FROM Catalog_Structure "
        "WHERE catalog_level_number < 9",
        url,
    )
    assert gold and matches(gold, answer.rows, ordered=False)


def test_a_column_asked_of_the_rows_in_other_words_is_found_by_meaning(settings: Any) -> None:
    """ "the duration of the track": no name says duration; among the columns of the table
    the question names, `Milliseconds` is the one nearest in meaning."""
    url = _spider_url("chinook_1", settings)
    answer = _asked("What is the duration of the track Balls to the Wall?", url)
    assert answer.status == "answered", answer.reason
    gold = _gold("SELECT Milliseconds FROM Track WHERE Name = 'Balls to the Wall'", url)
    assert gold and matches(gold, answer.rows, ordered=False)


def test_a_plural_in_uses_names_its_singular_table(settings: Any) -> None:
    """ "buses" is the plural of "bus" (`school_bus`), as "statuses" is of "status"; it is
    no word "buse"."""
    url = _spider_url("school_bus", settings)
    answer = _asked("How many school buses are there?", url)
    assert answer.status == "answered", answer.reason
    assert matches(_gold("SELECT COUNT(*) FROM school_bus", url), answer.rows, ordered=False)

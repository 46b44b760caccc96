"""A data steward in a real browser: logs in to the admin and edits a term."""

import shutil
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from registries.models import DataSource, Term
from registries.semantic_layer_loader import load_semantic_layer

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parents[2] / "var" / "e2e"


@pytest.fixture
def plain_http(settings: object) -> None:
    # The live server speaks plain HTTP on loopback.
    settings.SECURE_SSL_REDIRECT = False  # type: ignore[attr-defined]
    settings.SESSION_COOKIE_SECURE = False  # type: ignore[attr-defined]
    settings.CSRF_COOKIE_SECURE = False  # type: ignore[attr-defined]


@pytest.mark.e2e
def test_steward_edits_a_term_in_the_browser(
    transactional_db: None,
    live_server: object,
    plain_http: None,
    warehouse_source: DataSource,
    admin_user: User,
) -> None:
    if not shutil.which(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    before = load_semantic_layer()
    base = str(live_server)
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page()
        page.goto(f"{base}/admin/login/")
        page.fill("#id_username", "admin")
        page.fill("#id_password", "password")
        page.click("input[type=submit]")
        expect(page.locator("#site-name")).to_be_visible()

        page.goto(f"{base}/admin/registries/term/")
        page.fill("#searchbar", "crane")
        page.press("#searchbar", "Enter")
        page.locator("#result_list").get_by_role("link", name="crane", exact=True).click()

        # A wrong column is refused with the closest real names.
        page.fill("#id_resolutions-0-columns", "asset.nmae")
        page.click("input[name=_save]")
        expect(page.locator(".errorlist").first).to_contain_text("Did you mean: asset.name")
        page.screenshot(path=str(SHOTS / "term-error.png"), full_page=True)

        page.fill("#id_resolutions-0-columns", "asset.name")
        synonyms = page.input_value("#id_synonyms")
        page.fill("#id_synonyms", f"{synonyms}, derrick")
        page.fill("#id_description", "Heavy lifting equipment, derricks included.")
        page.click("input[name=_save]")
        expect(page.locator(".messagelist")).to_contain_text("was changed successfully")

        page.locator("#result_list").get_by_role("link", name="crane", exact=True).click()
        page.get_by_role("link", name="History").click()
        expect(page.locator("#change-history")).to_contain_text("Changed synonyms")

        graph = f"{base}/admin/registries/datasource/{warehouse_source.pk}/join-graph/"
        page.goto(f"{graph}?table=workTime")
        expect(page.locator("#join-graph svg")).to_be_visible()
        expect(page.locator("#join-graph-edges")).to_contain_text("workTime.employeeId")
        page.screenshot(path=str(SHOTS / "join-graph.png"), full_page=True)
        browser.close()

    crane = Term.objects.get(data_source=warehouse_source, name="crane")
    assert "derrick" in crane.synonyms and crane.edited_by_person
    after = load_semantic_layer()
    assert after.version > before.version
    assert "derrick" in next(t for t in after.terms if t.name == "crane").synonyms

"""In real Chromium: a club's owner invites a director for one event and a desk
for the whole club; each, signing up through the link, sees only what the role allows."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from tournaments.clubs import services
from tournaments.clubs.services import assign
from tournaments.core.roles import OWNER
from tournaments.core.simulate import demo_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SNOWMAN_VAR_DIR", "var/test")) / "screenshots"
PASSWORD = "a-long-pass-phrase-9"


def sign_in(page: Page, url: str, username: str, password: str) -> None:
    page.goto(url + "/director/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Sign in").click()


def invite(page: Page, url: str, role: str, events: list[str], note: str) -> str:
    page.goto(url + "/director/clubs/alpha/staff/")
    page.select_option("#id_role", role)
    for name in events:
        page.get_by_label(name).check()
    page.fill("#id_note", note)
    page.get_by_role("button", name="Make the invitation link").click()
    row = page.locator("#invitations tr", has_text=note)
    return row.locator("input.invite-link").input_value()


def join(chromium: Browser, link: str, username: str) -> Page:
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(link)
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Make the account and join").click()
    expect(page.locator("h1")).to_have_text("Tournaments")
    return page


def test_an_owner_invites_a_director_for_one_event_and_a_desk_and_each_sees_their_share(
    live_server, page, chromium, django_user_model
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    now = timezone.now()
    alpha = services.create_club("Alpha club", "alpha")
    beta = services.create_club("Beta club", "beta")
    mine = demo_event(2, "Alpha Open", round_started=now, club=alpha)
    other = demo_event(2, "Alpha Cup", round_started=now, club=alpha, seed=4)
    theirs = demo_event(2, "Beta Open", round_started=now, club=beta, seed=5)
    owner = django_user_model.objects.create_user("olga", password=PASSWORD, is_staff=True)
    assign(owner, OWNER, alpha)
    url = live_server.url

    sign_in(page, url, "olga", PASSWORD)
    expect(page.locator("table.grid")).to_contain_text("Alpha Open")
    expect(page.locator("table.grid")).not_to_contain_text("Beta Open")
    page.get_by_role("link", name="Staff and invitations").click()
    director_link = invite(page, url, "director", ["Alpha Open"], "Nina, Alpha Open")
    desk_link = invite(page, url, "desk", [], "Dave, the desk")
    assert director_link != desk_link and "/join/" in director_link
    page.screenshot(path=str(SHOTS / "clubs-staff-page.png"), full_page=True)

    nina = join(chromium, director_link, "nina")
    grid = nina.locator("table.grid")
    expect(grid).to_contain_text("Alpha Open")
    expect(grid).not_to_contain_text("Alpha Cup")
    expect(grid).not_to_contain_text("Beta Open")
    nina.get_by_role("link", name="Alpha Open").click()
    expect(nina).to_have_url(f"{url}/director/{mine.slug}/")
    for slug in (other.slug, theirs.slug):
        assert nina.goto(f"{url}/director/{slug}/").status == 404
    assert nina.goto(f"{url}/director/clubs/alpha/staff/").status == 404
    nina.screenshot(path=str(SHOTS / "clubs-director-of-one-event.png"), full_page=True)

    dave = join(chromium, desk_link, "dave")
    grid = dave.locator("table.grid")
    expect(grid).to_contain_text("Alpha Open")
    expect(grid).to_contain_text("Alpha Cup")
    expect(grid).not_to_contain_text("Beta Open")
    expect(grid).to_contain_text("(check-in desk)")
    dave.get_by_role("link", name="Alpha Cup").click()
    expect(dave).to_have_url(f"{url}/director/{other.slug}/desk/")
    assert dave.goto(f"{url}/director/{other.slug}/settings/").status == 403
    assert dave.goto(f"{url}/director/{theirs.slug}/desk/").status == 404
    dave.screenshot(path=str(SHOTS / "clubs-desk.png"), full_page=True)

    # Both links are spent; the owner's staff page lists both new members.
    spent = dave.goto(director_link)
    assert spent.status == 410
    expect(dave.locator("#refusal")).to_contain_text("already used")
    page.goto(url + "/director/clubs/alpha/staff/")
    expect(page.locator("#members")).to_contain_text("nina")
    expect(page.locator("#members")).to_contain_text("dave")
    expect(page.locator("#invitations")).to_contain_text("No open invitation.")

    # The club's public page lists the club's events, not another club's.
    page.goto(url + "/alpha/")
    expect(page.locator("#current")).to_contain_text("Alpha Open")
    expect(page.locator("main")).not_to_contain_text("Beta Open")
    page.get_by_role("link", name="Alpha Open").click()
    expect(page).to_have_url(f"{url}/e/{mine.slug}/")

"""A director builds a series in real Chromium: two past events imported, a third run here."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from django.db import transaction
from playwright.sync_api import expect

from tournaments.core.models.event import Tournament
from tournaments.core.models.people import Person, PersonLink
from tournaments.core.models.series import Series
from tournaments.core.services import rounds
from tournaments.core.simulate import SIM, Simulation, simulate
from tournaments.series.export import export_results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SNOWMAN_VAR_DIR", "var/test")) / "screenshots"


def past_event_file(tmp_path: Path, slug: str, name: str, seed: int) -> Path:
    """The export of an event played elsewhere: simulated here, then rolled back."""
    with transaction.atomic():
        doc = export_results(simulate(1, seed=seed))
        transaction.set_rollback(True)
    doc["tournament"].update(slug=slug, name=name)
    path = tmp_path / f"{slug}.json"
    path.write_text(json.dumps(doc, indent=1))
    return path


class RunHere(Simulation):
    """The simulation of an event, on a tournament the director created and registered."""

    def __init__(self, tournament: Tournament, seed: int) -> None:
        super().__init__(1, seed)
        self.existing = tournament

    def setup(self) -> Tournament:
        self.tournament = self.existing
        rounds.draw_first_round(self.tournament, by=SIM, seed=self.seed, now=self.clock)
        return self.tournament


def doc_series_slug() -> str:
    return Series.objects.get().slug


def test_a_director_builds_a_series_of_two_imported_events_and_one_run_here(
    live_server, page, director, tmp_path
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    files = [
        past_event_file(tmp_path, "january-night", "January night", seed=5),
        past_event_file(tmp_path, "february-night", "February night", seed=5),
    ]
    assert not Tournament.objects.exists()

    page.goto(live_server.url + "/director/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()

    # Create the series; a bad points list is refused on the page first.
    page.get_by_role("link", name="Series & people").click()
    page.fill("#id_name", "Winter League")
    page.fill("#id_place_points", "5,10")
    page.get_by_role("button", name="Create series").click()
    expect(page.locator(".settings-form")).to_contain_text("cannot score more")
    page.fill("#id_place_points", "10,6,4,3")
    page.fill("#id_best_of", "2")
    page.get_by_role("button", name="Create series").click()
    expect(page.locator("h1")).to_have_text("Winter League")

    # Import two past events; a broken file is refused whole, naming where.
    broken = tmp_path / "broken.json"
    broken.write_text(files[0].read_text().replace('"schema": "snowman.results/1"', '"schema": 1'))
    page.set_input_files("#id_file", str(broken))
    page.get_by_role("button", name="Import and add").click()
    expect(page.locator("#import-error")).to_contain_text("Nothing was imported. schema:")
    for path, name in zip(files, ("January night", "February night"), strict=True):
        page.set_input_files("#id_file", str(path))
        page.get_by_role("button", name="Import and add").click()
        expect(page.locator(".messages")).to_contain_text(f"Imported {name}: 4 players")
    # The same file again changes nothing.
    page.set_input_files("#id_file", str(files[0]))
    page.get_by_role("button", name="Import and add").click()
    expect(page.locator(".messages")).to_contain_text("was imported before")
    assert Person.objects.count() == 4

    # A third event is run here: the director creates it and registers its players by CSV,
    # and registration finds them as the people already known (same names).
    doc = json.loads(files[0].read_text())
    page.goto(live_server.url + "/director/tournaments/new/")
    page.fill("#id_name", "March night")
    page.get_by_role("button", name="Create tournament").click()
    csv_file = tmp_path / "march.csv"
    csv_file.write_text(
        "name,division\n" + "".join(f"{p['name']},{p['division']}\n" for p in doc["players"])
    )
    page.get_by_role("link", name="Import CSV").click()
    page.set_input_files("#id_file", str(csv_file))
    page.check("#id_checked_in")
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Import 4 players").click()
    expect(page.locator(".messages")).to_contain_text("Imported 4 players.")
    march = Tournament.objects.get(name="March night")
    links = PersonLink.objects.filter(player__tournament=march)
    assert sorted(links.values_list("how", flat=True)) == ["exact"] * 4
    assert Person.objects.count() == 4
    # The ratings of the imported events suggest divisions for the new one.
    page.get_by_role("link", name="Divisions from ratings").click()
    expect(page.locator("#suggestions tbody tr")).to_have_count(4)
    expect(page.locator(".card").first).to_contain_text("4 of 4 players are rated")
    page.screenshot(path=str(SHOTS / "divisions.png"), full_page=True)
    # The tablets' part: every round played through the services, to the champions.
    RunHere(march, seed=5).run()
    # Finishing the event put its five rounds into everyone's rating.
    assert set(Person.objects.values_list("rating_matches", flat=True)) == {15}
    page.goto(live_server.url + f"/director/league/series/{doc_series_slug()}/")
    page.select_option("#id_tournament", label="March night")
    page.get_by_role("button", name="Add to series").click()
    expect(page.locator("#series-events tbody tr")).to_have_count(3)
    expect(page.locator("#series-events")).to_contain_text("run here")

    series = Series.objects.get()
    rows = page.locator("#series-standings tbody tr")
    expect(rows).to_have_count(4)
    # Everyone played all three events and every event column shows their points.
    for i in range(4):
        expect(rows.nth(i).locator("td").nth(4)).to_have_text("3")
    expect(page.locator("#series-standings thead")).to_contain_text("March night")
    page.screenshot(path=str(SHOTS / "series.png"), full_page=True)

    # A person's page shows all three events, their matches, partners and rating.
    leader = rows.first.locator("td").nth(1).inner_text()
    rows.first.get_by_role("link").click()
    expect(page.locator("h1")).to_contain_text(leader)
    events = page.locator("section.event h3")
    expect(events).to_have_count(3)
    for name in ("January night", "February night", "March night"):
        expect(page.locator("section.event", has_text=name)).to_have_count(1)
    expect(page.locator("#rating")).to_contain_text("Rating")
    expect(page.locator("#partners tbody tr")).not_to_have_count(0)
    page.screenshot(path=str(SHOTS / "person.png"), full_page=True)

    # The public page shows the same standings without a login.
    public = page.context.browser.new_context().new_page()
    public.goto(live_server.url + f"/series/{series.slug}/")
    expect(public.locator("h1")).to_have_text("Winter League")
    expect(public.locator("#series-standings tbody tr")).to_have_count(4)
    public.screenshot(path=str(SHOTS / "series-public.png"), full_page=True)
    public.context.close()

    # The people list and the division suggestions for a new event.
    page.get_by_role("link", name="People", exact=True).first.click()
    expect(page.locator("#people tbody tr")).to_have_count(4)
    page.screenshot(path=str(SHOTS / "people.png"), full_page=True)
    assert PersonLink.objects.count() == 12
    assert re.search(r"\d", leader) is None


def test_a_series_of_twelve_events_shows_each_persons_dropped_results_struck_through(
    live_server, page, director
):
    """Past ten events the page had no per-event cells: nothing was struck through."""
    from tournaments.series.results_import import import_results
    from tournaments.series.services import add_event, create_series

    SHOTS.mkdir(parents=True, exist_ok=True)
    series = create_series("Winter League", place_points="10,6,3,1", best_of=3)
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun"]
    for n in range(12):
        with transaction.atomic():
            doc = export_results(simulate(1, seed=(5, 21)[n % 2]))
            transaction.set_rollback(True)
        name = f"{months[n // 2]} night {n % 2 + 1}"
        doc["tournament"].update(slug=f"night-{n + 1}", name=name)
        add_event(series, import_results(json.dumps(doc), by="d").tournament)
    page.goto(f"{live_server.url}/series/{series.slug}/")
    struck = page.locator("#series-standings s")
    expect(struck).to_have_count(8 * 3)  # eight people, six events each, best three
    assert struck.first.evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"
    expect(page.locator(".series-key")).to_contain_text("12 Jun night 2")
    page.screenshot(path=str(SHOTS / "series-twelve-events-public.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator(".table-wrap").evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    page.screenshot(path=str(SHOTS / "series-twelve-events-phone.png"), full_page=True)

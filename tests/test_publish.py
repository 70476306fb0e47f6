"""Results from the hall to the club site: published with the event's
token, idempotent at the club (again: no change; newer: an update in place, never a
double), refused whole when the token or the file is wrong, and the hall working on
with the club site unreachable."""

from __future__ import annotations

import contextlib
import io
import json
import re
import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bench.server import Server, free_port, production_env
from tournaments.core.models.event import Club, Player, Tournament
from tournaments.core.models.people import EventResult, ImportedEvent, Person, PersonLink
from tournaments.core.models.play import HandEntry, Match
from tournaments.core.models.rounds import Round, Seating
from tournaments.core.models.series import SeriesEvent
from tournaments.core.reads import outbound
from tournaments.core.reads.standings import standings
from tournaments.core.reads.visibility import of_event
from tournaments.core.services import ServiceError, closing, rounds
from tournaments.core.services.people import merge_people
from tournaments.core.services.players import register_player
from tournaments.core.services.standings import champions, finish_event, reveal, seed_final
from tournaments.core.services.tournaments import create_tournament, site_club
from tournaments.core.simulate import Simulation, simulate
from tournaments.publishing import reads
from tournaments.publishing.models import Publication, PublishGrant
from tournaments.publishing.services import configure, grant, publish, publish_pending
from tournaments.series.export import export_results
from tournaments.series.reads import series_table
from tournaments.series.services import create_series

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
# The hall's event arrives at the club under its own slug; hall and club share this test
# database, so the hall's copy is named differently and the files carry the club's slug.
SLUG = "from-the-hall"
DOOR = ("Door Walker One", "Door Walker Two", "Door Walker Three", "Door Walker Four")


def as_published(doc: dict[str, Any]) -> bytes:
    doc["tournament"]["slug"] = SLUG
    return json.dumps(doc).encode()


def two_versions() -> tuple[bytes, bytes]:
    """The hall's file after round 1, and after round 2 with four players added at the
    door in between."""
    sim = Simulation(1, seed=21, name="Hall night")
    t = sim.setup()
    sim.play_round(t.rounds.get(number=1))
    first = as_published(export_results(t))
    for name, division in zip(DOOR, "AABB", strict=True):
        register_player(t, name, division, by="desk", checked_in=True)
    rounds.seat_next_round(t, by="sim", now=sim.clock)
    sim.play_round(t.rounds.get(number=2))
    return first, as_published(export_results(t))


def send(client: Client, data: bytes, token: str | None) -> Any:
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token is not None else {}
    return client.post(reverse("publish:receive"), data, content_type="application/json", **headers)


def named_standings(doc: dict[str, Any]) -> dict[str, list[tuple[str, int, int]]]:
    """The file's standings by name (player ids are each site's own)."""
    name = {p["id"]: p["name"] for p in doc["players"]}
    return {
        division: [(name[line["player"]], line["rank"], line["total"]) for line in lines]
        for division, lines in doc["standings"].items()
    }


def hands_of(doc: dict[str, Any]) -> int:
    return sum(len(m["hands"]) for r in doc["rounds"] for m in r["matches"])


def club_rows() -> dict[str, list[dict[str, Any]]]:
    """Every row the published event has at the club, and every person."""
    t = Tournament.objects.filter(slug=SLUG)
    of = {"tournament__in": t}
    return {
        "tournament": list(t.values()),
        "imported": list(ImportedEvent.objects.filter(**of).values()),
        "players": list(Player.objects.filter(**of).order_by("pk").values()),
        "rounds": list(Round.objects.filter(**of).order_by("pk").values()),
        "seats": list(Seating.objects.filter(round__tournament__in=t).order_by("pk").values()),
        "matches": list(Match.objects.filter(round__tournament__in=t).order_by("pk").values()),
        "hands": list(
            HandEntry.objects.filter(match__round__tournament__in=t).order_by("pk").values()
        ),
        "results": list(EventResult.objects.filter(**of).order_by("pk").values()),
        "links": list(PersonLink.objects.filter(player__tournament__in=t).order_by("pk").values()),
        "series": list(SeriesEvent.objects.filter(tournament__in=t).values()),
        "people": list(Person.objects.order_by("pk").values()),
    }


def test_publishing_the_same_results_twice_changes_no_row(client):
    first, _second = two_versions()
    series = create_series("Winter league")
    token = grant(SLUG, series=series, by="club")
    response = send(client, first, token)
    assert response.status_code == 200, response.content
    assert response.json()["created"] is True
    before = club_rows()
    assert before["players"] and before["hands"] and len(before["series"]) == 1
    again = send(client, first, token)
    assert again.status_code == 200
    assert again.json() == {**response.json(), "created": False, "players": 0, "matches": 0}
    assert club_rows() == before


def test_a_newer_file_updates_the_event_in_place_with_the_door_players_never_doubling_it(
    client,
):
    first, second = two_versions()
    series = create_series("Winter league")
    token = grant(SLUG, series=series, by="club")
    assert send(client, first, token).status_code == 200
    event = Tournament.objects.get(slug=SLUG)
    answer = send(client, second, token)
    assert answer.status_code == 200 and answer.json()["updated"] is True
    assert Tournament.objects.filter(slug=SLUG).get().pk == event.pk  # the same event
    assert list(SeriesEvent.objects.filter(tournament=event).values_list("series", flat=True)) == [
        series.pk
    ]
    names = set(event.players.values_list("name", flat=True))
    assert set(DOOR) <= names
    assert event.rounds.count() == 2
    # One person per door player, however often the file comes.
    after = club_rows()
    assert send(client, second, token).json()["created"] is False
    assert club_rows() == after
    for name in DOOR:
        assert Person.objects.filter(name=name).count() == 1
        assert PersonLink.objects.filter(person__name=name, player__tournament=event).count() == 1
    assert Tournament.objects.filter(slug=SLUG).count() == 1
    standing = json.loads(second)["standings"]
    ranks = {
        (r.player.name, r.division): (r.rank, r.total)
        for r in EventResult.objects.filter(tournament=event).select_related("player")
    }
    by_id = {p["id"]: p["name"] for p in json.loads(second)["players"]}
    assert ranks == {
        (by_id[line["player"]], division): (line["rank"], line["total"])
        for division, lines in standing.items()
        for line in lines
    }


def test_the_clubs_person_record_wins_for_identity_and_the_halls_file_for_results(client):
    """docs/series.md: a player the club linked to another person (a merge) stays linked
    there when the hall publishes again; the results are the hall's."""
    first, second = two_versions()
    token = grant(SLUG, by="club")
    assert send(client, first, token).status_code == 200
    event = Tournament.objects.get(slug=SLUG)
    player = event.players.order_by("name").first()
    assert player is not None
    # At the club: the same human played an older event as "Known Regular"; the club's
    # director merges the new person into that one.
    old = simulate(1, seed=99, name="Old night")
    regular = Person.objects.filter(links__player__tournament=old).first()
    assert regular is not None
    merge_people(regular, player.person_link.person, by="club", reason="same person")
    assert send(client, second, token).status_code == 200
    again = event.players.get(name=player.name)
    assert again.person_link.person_id == regular.pk  # the club's identity stands
    assert regular.name != player.name  # and keeps its own name
    total = json.loads(second)["standings"]
    by_id = {p["id"]: p["name"] for p in json.loads(second)["players"]}
    expected = next(
        line["total"]
        for lines in total.values()
        for line in lines
        if by_id[line["player"]] == player.name
    )
    assert again.result.total == expected  # the hall's result


def test_a_wrong_or_missing_token_is_refused_and_nothing_is_stored(client):
    first, _second = two_versions()
    token = grant(SLUG, by="club")
    other = grant("another-event", by="club")
    count = Tournament.objects.count()
    assert send(client, first, "not-the-token").status_code == 403
    assert send(client, first, None).status_code == 403
    refused = send(client, first, other)  # a real token, of another event
    assert refused.status_code == 422
    assert "another-event" in refused.json()["error"]
    assert client.get(reverse("publish:receive")).status_code == 405
    # A token replaced at the club stops working.
    grant(SLUG, by="club")
    assert send(client, first, token).status_code == 403
    assert Tournament.objects.count() == count


def test_an_altered_or_broken_file_is_refused_with_a_clear_message_and_nothing_stored(client):
    first, _second = two_versions()
    token = grant(SLUG, by="club")
    doc = json.loads(first)
    hand = doc["rounds"][0]["matches"][0]["hands"][0]
    hand["points"]["NS"], hand["points"]["EW"] = hand["points"]["NS"] + 1, hand["points"]["EW"]
    count = Tournament.objects.count()
    altered = send(client, json.dumps(doc).encode(), token)
    assert altered.status_code == 422
    assert altered.json()["error"].startswith("rounds[0].matches[0].hands[0].points")
    broken = send(client, first[:-5], token)
    assert broken.status_code == 422 and "line 1 column" in broken.json()["error"]
    assert Tournament.objects.count() == count


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: nothing listens


def test_with_the_club_site_unreachable_the_hall_works_on_and_shows_not_published_yet(
    director_client,
):
    t = simulate(1, seed=21, name="Hall night")
    url = f"http://127.0.0.1:{closed_port()}"
    saved = director_client.post(
        reverse("director:publish_settings", args=[t.slug]), {"club_url": url, "token": "tok"}
    )
    assert saved.status_code == 302
    response = director_client.post(reverse("director:publish", args=[t.slug]), follow=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Not published yet" in text and "could not be reached" in text
    assert 'data-publish-state="pending"' in text
    publication = Publication.objects.get(tournament=t)
    assert publication.published_digest == "" and publication.attempted_at is not None
    # The hall goes on: its pages answer, and the retry reports the same.
    assert director_client.get(reverse("director:tournament", args=[t.slug])).status_code == 200
    assert [p.last_error != "" for p in publish_pending(by="retry")] == [True]
    logged = [a.text for a in t.activity.filter(action="publish")]
    assert sum(text.startswith("Publishing failed") for text in logged) == 1
    out = io.StringIO()
    call_command("publish_results", stdout=out)
    assert out.getvalue().startswith(f"{t.slug}: The club site could not be reached")


class Neighbour:
    """A service on the server's own network (another app, a cloud's metadata service):
    it counts what reaches it and answers with something it keeps to itself."""

    def __init__(self) -> None:
        import http.server
        import threading

        hits = self.hits = []

        class Answer(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                hits.append(self.command)
                self.send_response(400)
                self.end_headers()
                self.wfile.write(b'{"error": "neighbour secret 4711"}')

            do_GET = do_POST

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", 0), Answer)
        self.url = f"http://127.0.0.1:{self.server.server_port}/internal?x="
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_a_shared_site_publishes_to_no_address_of_its_own_network(director_client):
    """On a site of several clubs a director is not the site's operator: the club site's
    address she gives is not the server's neighbours (whose answer the refusal quoted)."""
    import urllib.error
    import urllib.request

    from tournaments.clubs.services import create_club

    neighbour = Neighbour()
    try:
        t = simulate(1, seed=21, name="Hall night")
        configure(t, club_url=neighbour.url, token="tok", by="director")
        # A hall laptop (one club): its club site may be on the hall's network.
        assert "neighbour secret 4711" in publish(t, by="director").last_error
        assert neighbour.hits == ["POST"]
        create_club("Other club", "other")
        sent = publish(t, by="director")
        assert neighbour.hits == ["POST"]
        assert "own network" in sent.last_error and "4711" not in sent.last_error
        # Nor by a public address's redirect there.
        with pytest.raises(urllib.error.URLError, match="own network"):
            outbound._CheckedRedirects().redirect_request(
                urllib.request.Request("https://club.example/results/publish/"),
                None,
                302,
                "Found",
                {},
                "http://169.254.169.254/latest/meta-data/",
            )
        # A redirect to another host does not carry the event's token there.
        sent_on = outbound._CheckedRedirects().redirect_request(
            urllib.request.Request(
                "https://club.example/results/publish/",
                headers={"Authorization": "Bearer tok"},
            ),
            None,
            302,
            "Found",
            {},
            "https://93.184.216.34/",
        )
        assert sent_on is not None and "Authorization" not in sent_on.headers
    finally:
        neighbour.close()


@contextmanager
def not_http() -> Iterator[int]:
    """A port whose server reads each request and answers in another protocol (a wrong
    port typed: an SSH server's banner), then hangs up."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)

    def answer() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                with conn:
                    conn.settimeout(0.3)
                    with contextlib.suppress(TimeoutError):
                        while conn.recv(65536):
                            pass
                    conn.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()


def test_a_club_site_address_that_answers_no_http_is_a_failure_shown_not_a_500(
    director_client,
):
    # http.client's BadStatusLine is neither an OSError nor a URLError: it was a 500.
    t = simulate(1, seed=21, name="Hall night")
    with not_http() as port:
        saved = director_client.post(
            reverse("director:publish_settings", args=[t.slug]),
            {"club_url": f"http://127.0.0.1:{port}", "token": "tok"},
        )
        assert saved.status_code == 302
        response = director_client.post(reverse("director:publish", args=[t.slug]), follow=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Not published yet" in text and "could not be reached (SSH-2.0-OpenSSH_9.2" in text
    assert Publication.objects.get(tournament=t).published_digest == ""


def test_bad_club_site_settings_are_refused_with_a_message(director_client):
    t = simulate(1, seed=21, name="Hall night")
    response = director_client.post(
        reverse("director:publish_settings", args=[t.slug]),
        {"club_url": "not a url", "token": "tok"},
        follow=True,
    )
    assert "club site&#x27;s address" in response.content.decode()
    assert not Publication.objects.filter(tournament=t).exists()


@pytest.mark.parametrize("slug", ["s" * 141, "Spring Open", "été", " "])
def test_publish_token_refuses_what_is_no_hall_slug_and_grants_nothing(db, slug):
    # 141 characters was a PostgreSQL traceback; a name with spaces made a token no hall's
    # event could ever use.
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="^Give the event's slug as the hall shows it"):
        call_command("publish_token", slug, stdout=io.StringIO())
    assert not PublishGrant.objects.exists()


def test_a_rehearsal_is_never_published():
    t = simulate(1, seed=21, name="Practice", rehearsal=True)
    Publication.objects.create(tournament=t, club_url="http://127.0.0.1:9", token="tok")
    with pytest.raises(ServiceError, match="rehearsal"):
        publish(t, by="director")
    assert publish_pending(by="retry") == []


# --- a club site in a process of its own ---------------------------------------------------


def club_command(env: dict[str, str], *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return out.stdout


@pytest.mark.slow  # a server process and a database of its own
def test_the_hall_publishes_to_a_club_site_server_with_its_token_twice_with_one_event(
    tmp_path,
):
    database = tmp_path / "club.sqlite3"
    env = production_env(f"sqlite:///{database}", tmp_path, tmp_path / "static")
    club_command(env, "migrate", "-v0")
    t = simulate(1, seed=21, name="Hall night")
    token = club_command(env, "publish_token", t.slug).strip()
    port = free_port()
    with Server(env, port, workers=1, threads=2, log=tmp_path / "club.log"):
        configure(t, club_url=f"http://127.0.0.1:{port}", token=token, by="director")
        first = publish(t, by="director")
        assert first.last_error == "" and first.published_at is not None
        assert not reads.state(t).pending
        assert publish(t, by="director").last_error == ""
        configure(t, club_url=f"http://127.0.0.1:{port}", token="wrong", by="d")
        refused = publish(t, by="director")
        assert "403" in refused.last_error and "token" in refused.last_error
    with sqlite3.connect(database) as db:
        events = db.execute("SELECT slug FROM tournaments_tournament").fetchall()
        players = db.execute("SELECT count(*) FROM tournaments_player").fetchone()[0]
    assert events == [(t.slug,)]
    assert players == t.players.count()
    club = json.loads(club_command(env, "export_results", t.slug))
    hall = export_results(t)
    assert named_standings(club) == named_standings(json.loads(json.dumps(hall)))
    assert hands_of(club) == hands_of(hall) > 0


def test_the_club_director_makes_a_token_on_the_series_page_and_the_event_lands_there(
    director_client, client
):
    first, _second = two_versions()
    series = create_series("Winter league")
    url = reverse("league:series_token", args=[series.slug])
    bad = director_client.post(url, {"slug": "Not a slug!"})
    assert bad.status_code == 422 and "slug" in bad.content.decode()
    made = director_client.post(url, {"slug": SLUG})
    assert made.status_code == 200
    token = re.search(r'id="new-token">[^<]*<code>([^<]+)</code>', made.content.decode())
    assert token is not None
    assert send(client, first, token.group(1)).status_code == 200
    event = Tournament.objects.get(slug=SLUG)
    assert SeriesEvent.objects.filter(series=series, tournament=event).count() == 1
    assert Client().post(url, {"slug": "other"}).status_code == 302  # to the sign-in


def test_a_token_for_the_slug_of_the_clubs_own_event_is_refused_with_the_reason(
    director_client, client
):
    """The club took registrations for "Spring Open" (slug spring-open); the hall, another
    server, made its event under the same name, so the same slug. A token for that slug
    could never publish (every file refused: "already here"): the page, the command and
    the service refuse it at once, say why, and store nothing. The results' own slug, once
    published here, takes a new token as before."""
    own = create_tournament("Spring Open", by="club")
    series = create_series("Winter league")
    url = reverse("league:series_token", args=[series.slug])
    refused = director_client.post(url, {"slug": own.slug})
    assert refused.status_code == 422
    assert "Spring Open at the hall" in refused.content.decode()
    assert 'id="new-token"' not in refused.content.decode()
    with pytest.raises(CommandError, match="spring-open is already an event of this site"):
        call_command("publish_token", own.slug, stdout=io.StringIO())
    with pytest.raises(ServiceError):
        grant(own.slug, by="club")
    assert not PublishGrant.objects.exists()
    first, second = two_versions()
    assert send(client, first, grant(SLUG, by="club")).status_code == 200
    assert send(client, second, grant(SLUG, by="club")).status_code == 200


def test_a_token_of_one_club_publishes_into_that_club_only(client):
    """Another club's token for the same event slug is that club's grant: it neither
    replaces this club's token nor reaches this club's event."""
    first, second = two_versions()
    home = site_club()
    other = Club.objects.create(name="Other club", slug="other-club", created_at=timezone.now())
    ours = grant(SLUG, by="club")
    theirs = grant(SLUG, club=other, by="other")
    assert send(client, first, ours).status_code == 200
    event = Tournament.objects.get(slug=SLUG)
    assert event.club_id == home.pk
    before = club_rows()
    refused = send(client, second, theirs)
    assert refused.status_code == 422
    assert club_rows() == before
    assert not Tournament.objects.filter(club=other).exists()
    # Ours still publishes (the other club's grant replaced nothing).
    assert send(client, second, ours).status_code == 200
    assert Tournament.objects.get(slug=SLUG).pk == event.pk


# --- publishing while the standings are hidden (RULES.md §5) --------------------------------


class ClubSite:
    """The club site's end, in this process: whatever the hall sends is posted to the
    receiving view under the club's slug for the event (``SLUG``), as a club site would
    take it; the bodies sent are kept."""

    def __init__(self, client: Client, token: str) -> None:
        self.client, self.token, self.sent = client, token, []

    def urlopen(self, request: Any, timeout: float) -> Any:
        self.sent.append(json.loads(request.data))
        answer = send(self.client, as_published(json.loads(request.data)), self.token)
        assert answer.status_code == 200, answer.content
        return io.BytesIO(b"{}")


def to_club_site(client: Client, monkeypatch: Any, t: Tournament, by: str = "director") -> ClubSite:
    """The hall's event ``t`` set to publish to a club site in this process (``ClubSite``,
    holding a token for ``SLUG``); returns it, with what it was sent."""
    club = ClubSite(client, grant(SLUG, by="club"))
    monkeypatch.setattr(outbound, "urlopen", club.urlopen)
    configure(t, club_url="https://club.example", token="tok", by=by)
    return club


def hidden_event(tables: int = 2) -> tuple[Simulation, Tournament]:
    """Five rounds, the last two hidden: rounds 1 to 4 played, so the standings are hidden
    and round 4's figures are what players may not see."""
    sim = Simulation(tables, seed=31, name="Hidden night")
    t = sim.setup()
    Tournament.objects.filter(pk=t.pk).update(hide_standings_last_rounds=2)
    t.refresh_from_db()
    for number in range(1, 5):
        if number > 1:
            rounds.seat_next_round(t, by="sim", now=sim.clock)
        sim.play_round(t.rounds.get(number=number))
    assert of_event(t).through == 3
    return sim, t


def totals(table: dict[str, Any]) -> dict[str, int]:
    return {row.player.name: row.record.total for rows in table.values() for row in rows}


def club_lists(client: Client) -> tuple[str, str]:
    """The club page's "Upcoming and running events" and "Past events", as text (the
    hall's own event is in this test database too: look for the club's ``SLUG``)."""
    page = client.get(reverse("club_public:club", args=[site_club().slug])).content.decode()
    return page.split('id="current"')[1].split("</ul>")[0], page.split('id="past"')[1].split(
        "</ul>"
    )[0]


def test_publishing_while_the_standings_are_hidden_sends_what_players_see_of_a_running_event(
    client, director_client, monkeypatch
):
    """Round 4 of 5 played, the last two hidden: the director presses Publish. The club site
    gets the figures of rounds 1 to 3 and round 4's seating, never a figure of round 4, and
    keeps the event as running, hidden as the hall hides it: its page lists it as running,
    its standings, series page and series points are those players see at the hall."""
    sim, t = hidden_event()
    live, shown = totals(standings(t)), totals(standings(t, through=3))
    assert live != shown  # round 4's figures move the totals: there is something to hide
    series = create_series("Winter league", points_table="total")
    club = ClubSite(client, grant(SLUG, series=series, by="club"))
    monkeypatch.setattr(outbound, "urlopen", club.urlopen)
    configure(t, club_url="https://club.example", token="tok", by="director")
    assert publish(t, by="director").last_error == ""

    sent = club.sent[-1]
    assert sent["tournament"]["status"] == "preliminary"
    fourth = next(r for r in sent["rounds"] if r["number"] == 4)
    assert fourth["matches"] and not fourth["sit_outs"]
    for match in fourth["matches"]:
        assert match["hands"] == [] and match["winner"] is None and match["players"] == {}
        assert match["score"] == {"NS": 0, "EW": 0} == match["bonuses"]
        assert set(match["seats"].values()) <= set(t.players.values_list("pk", flat=True))
    name = {p["id"]: p["name"] for p in sent["players"]}
    assert {
        name[line["player"]]: line["total"]
        for lines in sent["standings"].values()
        for line in lines
    } == shown

    event = Tournament.objects.get(slug=SLUG)
    assert event.status == "preliminary" and of_event(event).through == 3
    assert not HandEntry.objects.filter(match__round__tournament=event, match__round__number=4)
    assert not Seating.objects.filter(
        round__tournament=event, round__number=4, points__isnull=False
    ).exists()
    assert {r.player.name: r.total for r in EventResult.objects.filter(tournament=event)} == shown
    current, past = club_lists(client)
    assert f"/{SLUG}/" in current and f"/{SLUG}/" not in past
    board = client.get(reverse("public:standings", args=[SLUG])).content.decode()
    assert "As it stood after round 3; hidden until the final." in board
    player = event.players.order_by("pk").first()
    assert player is not None
    ledger = client.get(reverse("public:ledger", args=[SLUG, player.pk])).content.decode()
    assert ledger.count("Result hidden until the final") == 1  # round 4, as at the hall
    page = client.get(reverse("series_public:series", args=[series.slug])).content.decode()
    assert "Hidden night: as it stood after round 3; hidden until the final." in page
    for table in (series_table(series, for_players=True), series_table(series)):
        assert {row.person.name: row.line.points for row in table.rows} == shown
    # The director is told what went, and what goes later.
    settings = director_client.get(reverse("director:settings", args=[t.slug])).content.decode()
    assert "the figures up to round 3 and the seating after it" in settings


def test_a_hidden_score_changing_sends_nothing_and_the_final_sends_everything(client, monkeypatch):
    sim, t = hidden_event(tables=1)
    club = to_club_site(client, monkeypatch, t)
    publish(t, by="director")
    # Round 5 seated and started: players see the seating and the clock, so they go...
    rounds.seat_next_round(t, by="sim", now=sim.clock)
    fifth = t.rounds.get(number=5)
    rounds.start_round(fifth, by="sim", now=sim.clock)
    assert reads.state(t).pending
    assert [p.last_error for p in publish_pending(by="retry")] == [""]
    # ... its hands never do: nothing is sent while they are played, not even when.
    before = len(club.sent)
    deadline = sim.clock + timedelta(minutes=t.round_minutes)
    going = []
    for match in fifth.matches.select_related("round__tournament"):
        with sim.match_transaction():
            played = sim.play_match(match, sim.clock, deadline, None)
        if played is not None:
            going.append((match, played))
    for match, played in going:
        with sim.match_transaction():
            sim.after_call(match, deadline, played)
    assert HandEntry.objects.filter(match__round=fifth).exists()
    assert not reads.state(t).pending
    assert publish_pending(by="retry") == [] and len(club.sent) == before
    assert not HandEntry.objects.filter(
        match__round__tournament__slug=SLUG, match__round__number=5
    ).exists()
    # The round over (its clock) is news players see; its figures are still not.
    end = deadline + timedelta(minutes=8)
    for match in fifth.matches.all():
        closing.confirm_match(match, agree=True, by="Table", now=end)
    rounds.finish_round(t, fifth, by="sim", now=end, backup=False, seat=False)
    sim.clock = end
    assert [p.last_error for p in publish_pending(by="retry")] == [""]
    assert club.sent[-1]["standings"] == club.sent[before - 1]["standings"]
    # The final seeded reveals the standings: the club site gets everything, still running.
    final = seed_final(t, by="sim", now=sim.clock)
    assert reads.state(t).hidden_through is None
    publish_pending(by="retry")
    event = Tournament.objects.get(slug=SLUG)
    assert event.status == "final"
    live = totals(standings(t))
    assert {r.player.name: r.total for r in EventResult.objects.filter(tournament=event)} == live
    assert club.sent[-1]["rounds"] == export_results(t)["rounds"]
    current, past = club_lists(client)
    assert f"/{SLUG}/" in current and f"/{SLUG}/" not in past
    # Over at the hall: over at the club, listed once, among the past events.
    while champions(t) is None:
        game = final.matches.order_by("-game").first()
        assert game is not None
        sim.play_match(game, sim.clock, None)
        sim.clock += timedelta(minutes=25)
    finish_event(t, by="sim", now=sim.clock, backup=False)
    publish_pending(by="retry")
    assert Tournament.objects.get(slug=SLUG).status == "finished"
    current, past = club_lists(client)
    assert f"/{SLUG}/" not in current and past.count(f"/{SLUG}/") == 1


def test_standings_revealed_at_the_hall_are_revealed_at_the_club(client, monkeypatch):
    _sim, t = hidden_event(tables=1)
    club = to_club_site(client, monkeypatch, t)
    reveal(t, by="director")
    assert [p.last_error for p in publish_pending(by="retry")] == [""]
    event = Tournament.objects.get(slug=SLUG)
    assert event.standings_revealed_at is not None and not of_event(event).hidden
    assert club.sent[-1]["rounds"] == export_results(t)["rounds"]
    live = totals(standings(t))
    assert {r.player.name: r.total for r in EventResult.objects.filter(tournament=event)} == live


def test_the_directors_own_export_of_a_running_event_is_still_hidden_at_the_club(client):
    """By file, the director's export holds everything (§5); imported at the club it is a
    running event there, which the club's public pages and series hide as the hall does."""
    _sim, t = hidden_event(tables=1)
    shown = totals(standings(t, through=3))
    series = create_series("Winter league", points_table="total")
    token = grant(SLUG, series=series, by="club")
    assert send(client, as_published(export_results(t)), token).status_code == 200
    event = Tournament.objects.get(slug=SLUG)
    assert event.status == "preliminary" and of_event(event).through == 3
    players = series_table(series, for_players=True)
    assert {row.person.name: row.line.points for row in players.rows} == shown
    assert players.frozen == {event.pk: 3}
    board = client.get(reverse("public:standings", args=[SLUG])).content.decode()
    assert "As it stood after round 3; hidden until the final." in board
    # What publishing sends, by file: `export_results --published`.
    out = io.StringIO()
    call_command("export_results", t.slug, "--published", stdout=out)
    assert json.loads(out.getvalue()) == reads.document(t) != export_results(t)


def test_the_club_copy_of_a_round_running_at_the_hall_shows_no_clock(client, monkeypatch):
    """The hall's clock pauses, is called and extends tables; the club hears of the round
    a minute late, when it "started" on arrival. A phone or projector reading the club's
    copy shows the seat and no clock, rather than a countdown from the last file."""
    sim, t = hidden_event(tables=1)
    rounds.seat_next_round(t, by="sim", now=sim.clock)
    rounds.start_round(t.rounds.get(number=5), by="sim", now=timezone.now())
    to_club_site(client, monkeypatch, t)
    assert publish(t, by="director").last_error == ""
    event = Tournament.objects.get(slug=SLUG)
    assert event.rounds.get(number=5).started_at is not None
    player = event.players.order_by("pk").first()
    assert player is not None
    card = client.get(reverse("public:card", args=[SLUG, player.pk])).content.decode()
    assert "Round 5" in card and "data-clock " not in card
    assert client.get(reverse("public:clock", args=[SLUG])).json()["round"] is None
    # At the hall the same round has its clock.
    hall = t.players.order_by("pk").first()
    assert hall is not None
    assert (
        "data-clock " in client.get(reverse("public:card", args=[t.slug, hall.pk])).content.decode()
    )
    assert client.get(reverse("public:clock", args=[t.slug])).json()["round"] == "Round 5"


def test_a_file_written_before_the_event_said_where_it_stands_is_a_past_event(client):
    doc = export_results(simulate(1, seed=21, name="Old night"))
    for key in ("status", "standings_revealed"):
        doc["tournament"].pop(key, None)
    for player in doc["players"]:
        player.pop("registration", None)
    assert send(client, as_published(doc), grant(SLUG, by="club")).status_code == 200
    assert Tournament.objects.get(slug=SLUG).status == "finished"


def test_a_change_to_the_club_copy_of_an_event_running_at_the_hall_is_refused(
    client, director_client, monkeypatch
):
    """The next file from the hall would undo it: the club's staff are told to make it at
    the hall, and nothing changes here."""
    sim, t = hidden_event(tables=1)
    rounds.seat_next_round(t, by="sim", now=sim.clock)
    to_club_site(client, monkeypatch, t)
    assert publish(t, by="director").last_error == ""
    event = Tournament.objects.get(slug=SLUG)
    assert event.rounds.get(number=5).status == "seated"
    assert director_client.get(reverse("director:tournament", args=[SLUG])).status_code == 200
    response = director_client.post(reverse("director:clock", args=[SLUG, 5, "start"]))
    assert response.status_code == 409
    assert "Make the change at the hall" in response.content.decode()
    assert event.rounds.get(number=5).status == "seated"
    # The hall's own event is run as ever.
    response = director_client.post(reverse("director:clock", args=[t.slug, 5, "start"]))
    assert response.status_code == 302 and t.rounds.get(number=5).status != "seated"


def test_the_club_console_of_an_event_running_at_the_hall_says_so_and_offers_no_change(
    client, director_client, monkeypatch
):
    """The refusal above is the server's; the pages say it first: a banner on every page
    of the copy, no clock counting from the last file's arrival, and no button that
    would be refused. The hall's own console keeps its clock and its buttons."""
    sim, t = hidden_event(tables=1)
    rounds.seat_next_round(t, by="sim", now=sim.clock)
    rounds.start_round(t.rounds.get(number=5), by="sim", now=timezone.now())
    to_club_site(client, monkeypatch, t)
    assert publish(t, by="director").last_error == ""
    copy = director_client.get(reverse("director:round", args=[SLUG, 5])).content.decode()
    assert 'id="hall-copy"' in copy and "hall-copy" in copy.split("<body", 1)[1][:80]
    assert "data-countdown " not in copy and 'id="clock-at-hall"' in copy
    for name, args in (("director:players", [SLUG]), ("director:standings", [SLUG])):
        assert 'id="hall-copy"' in director_client.get(reverse(name, args=args)).content.decode()
    own = director_client.get(reverse("director:round", args=[t.slug, 5])).content.decode()
    assert 'id="hall-copy"' not in own and "data-countdown " in own
    assert "hall-copy" not in own.split("<body", 1)[1][:80]
    # Once the hall's last file says the event is finished, the copy is the club's own
    # record, and the banner goes.
    event = Tournament.objects.get(slug=SLUG)
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.FINISHED)
    home = director_client.get(reverse("director:tournament", args=[SLUG])).content.decode()
    assert 'id="hall-copy"' not in home


def test_a_player_checked_in_at_the_hall_after_the_draw_is_not_sent_to_the_desk_at_the_club(
    client, monkeypatch
):
    """A late arrival checked in at the hall after round 1 was seated: her card and ledger
    at the club (where her registration link leads) say what the hall's say, that she plays
    from the next round, never "You are not checked in. Go to the desk"; a player the hall
    never checked in reads, as at the hall, that she is not."""
    sim = Simulation(1, seed=21, name="Hall night")
    t = sim.setup()
    late = register_player(t, "Late Lucy", "A", by="desk", checked_in=True)
    register_player(t, "Absent Abe", "B", by="desk")
    to_club_site(client, monkeypatch, t)
    assert publish(t, by="director").last_error == ""
    event = Tournament.objects.get(slug=SLUG)
    for name, says in (
        ("Late Lucy", "You checked in after round 1 was seated"),
        ("Absent Abe", "You are not checked in."),
    ):
        hall = t.players.get(name=name)
        mine = event.players.get(name=name)
        assert mine.checked_in == hall.checked_in == (hall == late)
        at_hall = client.get(reverse("public:card", args=[t.slug, hall.pk])).content.decode()
        at_club = client.get(reverse("public:card", args=[SLUG, mine.pk])).content.decode()
        assert says in at_hall and says in at_club
        ledger = client.get(reverse("public:ledger", args=[SLUG, mine.pk])).content.decode()
        assert ("Checked in after this round was seated" in ledger) == (hall == late)


def test_the_final_under_way_at_the_hall_is_under_way_at_the_club(client, monkeypatch):
    """Published during the final, the club's copy plays the final as the hall does: a
    finalist's ledger there says "Playing now", not a final over; once the event is
    finished at the hall, finished at the club too."""
    sim = Simulation(1, seed=21, name="Hall night")
    t = sim.setup()
    Tournament.objects.filter(pk=t.pk).update(preliminary_rounds=2)
    t.refresh_from_db()
    sim.play_round(t.rounds.get(number=1))
    rounds.seat_next_round(t, by="sim", now=sim.clock)
    sim.play_round(t.rounds.get(number=2))
    final = seed_final(t, by="sim", now=sim.clock)
    to_club_site(client, monkeypatch, t)
    t.refresh_from_db()
    assert publish(t, by="director").last_error == ""
    event = Tournament.objects.get(slug=SLUG)
    seat = Seating.objects.filter(round=final).order_by("position").first()
    assert seat is not None
    mine = event.players.get(name=seat.player.name)
    for slug, pk in ((t.slug, seat.player_id), (SLUG, mine.pk)):
        assert (
            "Playing now" in client.get(reverse("public:ledger", args=[slug, pk])).content.decode()
        )
    assert event.rounds.get(kind="final").status == final.status == "running"
    while champions(t) is None:
        game = final.matches.order_by("-game").first()
        assert game is not None
        sim.play_match(game, sim.clock, None)
    finish_event(t, by="sim", now=sim.clock, backup=False)
    assert [p.last_error for p in publish_pending(by="retry")] == [""]
    event = Tournament.objects.get(slug=SLUG)
    assert event.status == "finished" and event.rounds.get(kind="final").status == "finished"
    mine = event.players.get(name=seat.player.name)
    assert (
        "Playing now"
        not in client.get(reverse("public:ledger", args=[SLUG, mine.pk])).content.decode()
    )


def test_a_player_who_sits_out_a_hidden_round_at_the_hall_is_not_told_at_the_club_she_came_late(
    client, monkeypatch
):
    """A hidden round travels as seating only: the club's copy cannot tell a sit-out from
    a late arrival there. Her card says she is not seated, and her ledger that this
    round is hidden, rather than "You checked in after round 5 was seated" about a
    player who has played every round."""
    sim, t = hidden_event(tables=2)
    register_player(t, "Late Lou", "A", by="desk", checked_in=True)
    rounds.seat_next_round(t, by="sim", now=sim.clock)  # Lou takes a mover's seat
    r5 = t.rounds.get(number=5)
    mover = r5.sit_outs.get().player
    to_club_site(client, monkeypatch, t)
    assert publish(t, by="director").last_error == ""
    hall_card = client.get(reverse("public:card", args=[t.slug, mover.pk])).content.decode()
    assert "You sit out round 5" in hall_card
    mine = Tournament.objects.get(slug=SLUG).players.get(name=mover.name)
    card = client.get(reverse("public:card", args=[SLUG, mine.pk])).content.decode()
    assert "You checked in after round 5" not in card
    assert "You are not seated in this round." in card
    ledger = client.get(reverse("public:ledger", args=[SLUG, mine.pk])).content.decode()
    line = ledger.split("Round 5")[1].split("</li>")[0]
    assert "Checked in after this round" not in line and "not checked in" not in line
    assert "hidden until the final" in line

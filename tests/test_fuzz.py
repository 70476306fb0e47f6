"""Bad input: arbitrary payloads never cause a server error or a partial write.

Hypothesis throws random and near-valid input at the CSV import, the tablet endpoints
and the director's forms. Every answer must be a clear refusal (4xx or a form error) or
a complete success, and a refusal must leave the database as it was.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from tournaments.core.models.event import Player, Tournament
from tournaments.core.reads.players import parse_players_csv
from tournaments.core.services.players import import_players

# Seconds per test: skipped by `pytest -m "not slow"`, always run by .ci/run.
pytestmark = pytest.mark.slow

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# --- CSV import --------------------------------------------------------------------

nasty_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=120)
names = st.one_of(
    st.text(min_size=0, max_size=90),
    nasty_text,
    st.sampled_from(
        [
            "Ann Lee",
            " ann  lee ",
            "ANN LEE",
            "Straße",
            "STRASSE",
            "x" * 81,
            "x" * 80,
            "a\x00b",
            "tab\there",
            '"quoted, name"',
            "=cmd|' /C calc'!A0",
            "Zoë",
            "\u202eevil",
            "line\nbreak",
            "",
        ]
    ),
)
divisions = st.one_of(
    st.sampled_from(["A", "B", "a", " b ", "C", "", "AB", "Ａ"]), st.text(max_size=3)
)
rows = st.lists(
    st.one_of(
        st.tuples(names, divisions).map(list),
        st.lists(names, min_size=0, max_size=4),
    ),
    max_size=12,
)


def to_csv(cells_per_row: list[list[str]], header: bool, line_end: str) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator=line_end)
    if header:
        writer.writerow(["name", "division"])
    writer.writerows(cells_per_row)
    return out.getvalue()


csv_payloads = st.one_of(
    st.builds(to_csv, rows, st.booleans(), st.sampled_from(["\n", "\r\n", "\r"])),
    st.builds(lambda s: s.encode("utf-8"), st.builds(to_csv, rows, st.booleans(), st.just("\n"))),
    st.builds(lambda s: "\ufeff" + s, st.builds(to_csv, rows, st.booleans(), st.just("\n"))),
    st.binary(max_size=300),
    st.builds(lambda s: s.encode("latin-1", "replace"), nasty_text),
    nasty_text,
)


def player_rows(tournament) -> list[tuple]:
    return list(Player.objects.filter(tournament=tournament).order_by("pk").values_list())


@given(payload=csv_payloads)
@FUZZ
def test_the_csv_import_refuses_bad_files_whole_and_never_crashes(make_tournament, payload):
    t = make_tournament(1)
    before = player_rows(t)
    preview = parse_players_csv(t, payload)
    assert player_rows(t) == before, "checking a file must not write"
    report = import_players(t, payload, by="fuzz")
    after = player_rows(t)
    if report.ok:
        assert len(after) == len(before) + len(report.rows)
        assert [(r.name, r.division) for r in report.rows] == [
            (r.name, r.division) for r in preview.rows
        ]
        added = Player.objects.filter(tournament=t).exclude(pk__in=[r[0] for r in before])
        for player in added:
            assert player.name.strip() and len(player.name) <= 80
            assert player.name.isprintable() and player.division in ("A", "B")
    else:
        assert after == before
        assert report.errors and all(message for _, message in report.errors)
        for line, _ in report.errors:
            assert line >= 0


@given(extra=st.lists(st.tuples(names, divisions), max_size=6))
@FUZZ
def test_a_file_with_one_bad_row_imports_nothing(make_tournament, extra):
    t = make_tournament(1)
    good = [["Valid Person", "A"], ["Other Person", "B"]]
    bad_rows = [list(r) for r in extra]
    report = parse_players_csv(t, to_csv(good + bad_rows, True, "\n"))
    assume(report.errors)
    before = player_rows(t)
    assert not import_players(t, to_csv(good + bad_rows, True, "\n"), by="fuzz").ok
    assert player_rows(t) == before


@pytest.mark.parametrize(
    "payload",
    [
        b"\xff\xfe\x00n\x00a",
        "name,division\n" + "x,A\n" * 3,
        'name,division\n"unterminated,A\n',
        "\x00,A\n",
    ],
)
def test_known_bad_files_are_refused_with_a_reason(make_tournament, payload):
    t = make_tournament(1)
    before = player_rows(t)
    report = import_players(t, payload, by="fuzz")
    assert not report.ok and report.error_text()
    assert player_rows(t) == before


# --- Shared: a small event in the middle of round 1 ------------------------------------

HUGE = [2**31, 2**63, 10**20, -(2**63) - 1]
odd_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(HUGE),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(
        [
            "",
            "N",
            "E",
            "S",
            "W",
            "X",
            "played",
            "renege",
            "misdeal",
            "3",
            "\x00",
            "x" * 5000,
            "1e309",
            "NaN",
            "9" * 30,
        ]
    ),
)
json_values = st.recursive(
    odd_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


@pytest.fixture
def mid_round(make_tournament):
    """Round 1 running: table 1 has three hands, table 2 is finished."""
    from tests.test_faults import MAKE, play_out
    from tournaments.core.services import play, rounds
    from tournaments.domain.hands import Seat

    t = make_tournament(2)
    rnd = rounds.start_round(rounds.draw_first_round(t, by="test", seed=2), by="test")
    one, two = rnd.matches.order_by("table")
    play.set_first_dealer(one, Seat.N, by="test")
    for n in range(1, 4):
        play.record_hand(one, MAKE, client_key=f"mid-{n}", by="test")
    play_out(two)
    return t


def snapshot():
    from tests import test_faults

    return test_faults.snapshot()


# --- Tablet endpoints ----------------------------------------------------------------

VALID_HAND = {
    "client_key": "fuzz-base",
    "number": 4,
    "outcome": "played",
    "maker": "S",
    "alone": False,
    "maker_tricks": 3,
    "renege_by": None,
    "first_dealer": "N",
    "entered_at": "2026-11-30T10:02:03Z",
}
HAND_KEYS = [*VALID_HAND, "match", "dealer_partner_ordered_up"]
WEIRD_TIMES = [
    "0001-01-01T00:00:00+14:00",
    "9999-12-31T23:59:59-14:00",
    "2026-13-45T25:61:00Z",
    "2026-11-30",
    "2026-11-30T10:02:03",
    "now",
    "2026-11-30T10:02:03.999999999Z",
]
near_valid_hands = st.builds(
    lambda changes: {**VALID_HAND, **changes},
    st.dictionaries(
        st.sampled_from(HAND_KEYS),
        st.one_of(json_values, st.sampled_from(WEIRD_TIMES)),
        min_size=1,
        max_size=4,
    ),
)
tablet_bodies = st.one_of(
    st.binary(max_size=200),
    json_values.map(lambda v: json.dumps(v).encode()),
    near_valid_hands.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(
        st.sampled_from(["seat", "number", "in_progress", "agree", "by", "note", "match"]),
        json_values,
        max_size=4,
    ).map(lambda v: json.dumps(v).encode()),
)
TABLET_POSTS = ["hands", "first-dealer", "keeper", "undo", "answer-call", "confirm"]
TABLET_ANSWERS = {200, 201, 400, 403, 409, 422}


@pytest.fixture
def tablet(mid_round):
    from django.test import Client

    from tournaments.core.models.play import TableLink

    link = TableLink.objects.get(tournament=mid_round, table=1, revoked_at__isnull=True)
    client = Client()
    assert client.get(f"/t/{link.token}/").status_code == 302
    return client


def assert_clear_answer(response, before, allowed=TABLET_ANSWERS) -> None:
    assert response.status_code in allowed, (response.status_code, response.content[:300])
    if response.status_code >= 400:
        assert snapshot() == before, f"a {response.status_code} refusal changed the database"
        if response.get("Content-Type", "").startswith("application/json"):
            assert json.loads(response.content)["error"]


@pytest.mark.parametrize("action", TABLET_POSTS)
@given(body=tablet_bodies)
@FUZZ
def test_tablet_endpoints_answer_any_body_with_a_clear_refusal(tablet, action, body):
    before = snapshot()
    response = tablet.post(f"/t/table/{action}", body, content_type="application/json")
    assert_clear_answer(response, before)


@given(
    match=st.one_of(
        st.text(max_size=30), st.integers().map(str), st.sampled_from([str(h) for h in HUGE])
    )
)
@FUZZ
def test_the_tablet_state_refuses_any_match_parameter_cleanly(tablet, match):
    before = snapshot()
    response = tablet.get("/t/table/state.json", {"match": match})
    assert_clear_answer(response, before, {200, 400, 403, 422})


@given(token=st.text(min_size=1, max_size=100))
@FUZZ
def test_any_token_opens_nothing_but_its_own_table(mid_round, token):
    from urllib.parse import quote

    from django.test import Client

    response = Client().get(f"/t/{quote(token, safe='')}/")
    assert response.status_code in (403, 404), response.status_code


# --- Director forms ----------------------------------------------------------------

# Every rule setting the forms take, from the one list the model keeps (so a new setting is
# fuzzed without a second list to remember), plus the two that are not plain numbers.
RULE_FIELDS = [*Tournament.RULE_FIELDS, "sit_out_score"]
HAND_FIELDS = ["client_key", "outcome", "maker", "alone", "maker_tricks", "renege_by"]
form_values = st.one_of(
    st.text(max_size=40),
    st.integers().map(str),
    st.sampled_from([str(h) for h in HUGE]),
    st.sampled_from(
        [
            "",
            "1",
            "0",
            "on",
            "A",
            "B",
            "NS",
            "EW",
            "N",
            "S",
            "played",
            "renege",
            "misdeal",
            "total,wins,margin,lot",
            "lot",
            "x" * 300,
            "\x00",
            "-1",
        ]
    ),
)


def director_targets(t) -> list[tuple[str, list[str]]]:
    """(url, field names) for every director POST, on the event in the fixture."""
    s = t.slug
    rnd = f"/director/{s}/rounds/1/"
    hand = t.rounds.get(number=1).matches.get(table=1).hands.first().pk
    player = t.players.first().pk
    return [
        ("/director/tournaments/new/", ["name", "tiebreaks", *RULE_FIELDS]),
        (f"/director/{s}/settings/", ["name", "tiebreaks", *RULE_FIELDS]),
        (f"/director/{s}/players/", ["name", "division", "checked_in"]),
        (f"/director/{s}/players/import/", ["text", "checked_in", "confirm"]),
        (f"/director/{s}/players/{player}/edit/", ["name", "division"]),
        (f"/director/{s}/players/{player}/withdraw/", ["withdrawn", "reason", "next"]),
        (f"/director/{s}/players/{player}/check-in/", ["checked_in", "mode", "next"]),
        (f"/director/{s}/draw/", ["redraw"]),
        (f"/director/{s}/rounds/next/", []),
        (rnd + "swap/", ["first", "second", "reason"]),
        (rnd + "clock/pause/", []),
        (rnd + "clock/call/", []),
        (rnd + "finalize/", []),
        (rnd + "tables/1/extend/", ["minutes", "reason", "game"]),
        (rnd + "tables/2/override/", ["winner", "reason", "game"]),
        (rnd + "tables/2/close/", ["reason", "game"]),
        (rnd + "tables/1/relink/", ["game"]),
        (
            rnd + f"tables/1/hands/{hand}/correct/",
            [f"h{hand}-{f}" for f in HAND_FIELDS] + ["reason", "game"],
        ),
        (f"/director/{s}/final/seed/", []),
        (f"/director/{s}/final/dealer/", ["seat"]),
        (f"/director/{s}/final/hand/", HAND_FIELDS),
        (f"/director/{s}/finish/", []),
    ]


DIRECTOR_ANSWERS = {200, 302, 400, 403, 404, 405, 409, 422}


@pytest.mark.parametrize("target", range(22))
@given(data=st.data())
@FUZZ
def test_director_forms_answer_any_post_with_a_form_error_or_a_change(
    director_client, mid_round, target, data
):
    targets = director_targets(mid_round)
    assert len(targets) == 22
    url, fields = targets[target]
    chosen = (
        data.draw(st.lists(st.sampled_from(fields), unique=True), label="fields") if fields else []
    )
    payload = {name: data.draw(form_values, label=name) for name in chosen}
    before = snapshot()
    response = director_client.post(url, payload)
    assert response.status_code in DIRECTOR_ANSWERS, (url, payload, response.status_code)
    if response.status_code >= 400:
        assert snapshot() == before, f"{url} refused with {response.status_code} but wrote"


@given(upload=csv_payloads)
@FUZZ
def test_the_import_form_takes_any_upload(director_client, mid_round, upload):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = upload if isinstance(upload, bytes) else upload.encode("utf-8", "surrogatepass")
    before = snapshot()
    for confirm in ("", "1"):
        response = director_client.post(
            f"/director/{mid_round.slug}/players/import/",
            {"file": SimpleUploadedFile("players.csv", data, "text/csv"), "confirm": confirm},
        )
        assert response.status_code in (200, 302, 422), response.status_code
        if response.status_code == 422:
            assert snapshot() == before


@given(
    number=st.one_of(st.integers(min_value=0), st.sampled_from(HUGE[:3])),
    table=st.one_of(st.integers(min_value=0), st.sampled_from(HUGE[:3])),
    game=st.one_of(st.text(max_size=10), st.sampled_from(["1", "2", "-1", "9" * 25])),
    division=st.sampled_from(["A", "B", "C", "a", "AB", "%00"]),
)
@FUZZ
def test_director_pages_take_any_number_in_the_address(
    director_client, mid_round, number, table, game, division
):
    s = mid_round.slug
    for url in (
        f"/director/{s}/rounds/{number}/",
        f"/director/{s}/rounds/{number}/board/",
        f"/director/{s}/rounds/{number}/seating/",
        f"/director/{s}/rounds/{number}/tables/{table}/?game={game}",
        f"/director/{s}/players/{table}/edit/",
        f"/director/{s}/standings/{division}.csv",
        f"/director/sheets/{s}/standings/{division}.pdf",
        f"/director/sheets/{s}/rounds/{number}/seating.pdf",
    ):
        response = director_client.get(url)
        # A NUL in the query string is refused whole, before any view (snowman/middleware.py).
        refused = (400,) if "\x00" in url.partition("?")[2] else ()
        assert response.status_code in (200, 302, 404, *refused), (url, response.status_code)


@pytest.mark.parametrize(
    "action,body",
    [
        ("hands", {**VALID_HAND, "client_key": "nul\x00key"}),
        ("hands", {**VALID_HAND, "match": "9" * 30}),
        ("hands", {**VALID_HAND, "entered_at": "0001-01-01T00:00:00+14:00"}),
        ("hands", {**VALID_HAND, "maker_tricks": 10**30}),
        ("undo", {"number": 2**63}),
        ("confirm", {"agree": False, "by": "\x00", "note": "\x00"}),
        ("first-dealer", {"seat": "N\x00"}),
        ("keeper", {"seat": "N\x00"}),
    ],
)
def test_tablet_edge_cases_are_refused_cleanly(tablet, action, body):
    before = snapshot()
    response = tablet.post(f"/t/table/{action}", json.dumps(body), content_type="application/json")
    assert_clear_answer(response, before)


@pytest.mark.parametrize("note", ["nul\x00note", "x" * 2001])
def test_a_dispute_note_the_database_cannot_store_is_refused(mid_round, note):
    from django.test import Client

    from tournaments.core.models.play import TableLink

    link = TableLink.objects.get(tournament=mid_round, table=2, revoked_at__isnull=True)
    tablet = Client()
    tablet.get(f"/t/{link.token}/")
    seat = mid_round.rounds.get(number=1).seats.filter(table=2).first()
    name = seat.player.name
    # The other team kept score, so the confirmation reaches the note's check.
    tablet.post(
        "/t/table/keeper",
        {"seat": "E" if seat.position in "NS" else "N"},
        content_type="application/json",
    )
    before = snapshot()
    response = tablet.post(
        "/t/table/confirm",
        {"agree": False, "by": name, "note": note},
        content_type="application/json",
    )
    assert_clear_answer(response, before, {400, 422})


# --- The round's end: any sequence of clock, settings, extensions, answers and hands ---


END_ANSWERS = {200, 201, 302, 400, 403, 409, 422}


class RoundEndMachine(RuleBasedStateMachine):
    """Two tablets at table 1 and the director, doing anything in any order at the end of
    a round (docs/rules.md §7). No request may answer 5xx, and the table's state, the board
    and the table page always answer."""

    counter = 0

    def __init__(self) -> None:
        super().__init__()
        from django.contrib.auth import get_user_model
        from django.test import Client

        from tests.conftest import players_csv
        from tournaments.core.models.play import TableLink
        from tournaments.core.services import rounds
        from tournaments.core.services.players import import_players
        from tournaments.core.services.tournaments import create_tournament
        from tournaments.domain.rules import RuleSettings

        RoundEndMachine.counter += 1
        n = RoundEndMachine.counter
        self.t = create_tournament(
            f"Fuzz end {n}", by="test", lot_seed=n, rules=RuleSettings(preliminary_rounds=2)
        )
        import_players(self.t, players_csv(2), by="test", checked_in=True)
        self.rnd = rounds.draw_first_round(self.t, by="test", seed=n)
        rounds.start_round(self.rnd, by="test")
        token = TableLink.objects.get(tournament=self.t, table=1, revoked_at__isnull=True).token
        self.tablets = []
        for _ in range(2):
            client = Client()
            assert client.get(f"/t/{token}/").status_code == 302
            self.tablets.append(client)
        from tournaments.clubs.services import assign

        user_model = get_user_model()
        user = user_model.objects.filter(username="fuzz-director").first()
        if user is None:
            user = user_model.objects.create_user(
                "fuzz-director", password="x-long-password", is_staff=True
            )
            assign(user, "director")  # a staff flag alone is no role
        self.director = Client()
        self.director.force_login(user)
        self.seen: list[dict] = [{}, {}]
        self.base = f"/director/{self.t.slug}/rounds/1/"

    def check(self, response) -> None:  # noqa: ANN001
        assert response.status_code in END_ANSWERS, (
            response.status_code,
            response.content[:400],
        )

    def post(self, which: int, path: str, body: dict) -> None:
        response = self.tablets[which].post(
            f"/t/table/{path}", json.dumps(body), content_type="application/json"
        )
        self.check(response)

    def look(self, which: int) -> None:
        response = self.tablets[which].get("/t/table/state.json")
        self.check(response)
        if response.status_code == 200:
            data = response.json()
            match = data["match"] or {}
            self.seen[which] = {
                "hands": match.get("hands_standing"),
                "version": match.get("version"),
                "next": match.get("next_number", 1),
                "last_key": data["hands"][-1]["client_key"] if data["hands"] else None,
            }

    @rule(which=st.integers(0, 1))
    def poll(self, which: int) -> None:
        self.look(which)

    @rule(
        which=st.integers(0, 1),
        maker=st.sampled_from("NESW"),
        tricks=st.integers(0, 5),
        alone=st.booleans(),
        backdate=st.sampled_from([None, 0, 40, 600, 3000, -60]),
        number_shift=st.sampled_from([0, 0, 0, -1, 1]),
    )
    def hand(self, which, maker, tricks, alone, backdate, number_shift) -> None:  # noqa: ANN001
        from datetime import timedelta

        from django.utils import timezone

        RoundEndMachine.counter += 1
        body = {
            "client_key": f"fz-{RoundEndMachine.counter}",
            "number": max(1, self.seen[which].get("next", 1) + number_shift),
            "outcome": "played",
            "maker": maker,
            "alone": alone,
            "maker_tricks": tricks,
            "first_dealer": "N",
        }
        if backdate is not None:
            body["entered_at"] = (timezone.now() - timedelta(seconds=backdate)).isoformat()
        self.post(which, "hands", body)

    @rule(
        which=st.integers(0, 1),
        number_shift=st.sampled_from([0, 0, -1, 1]),
        keyed=st.sampled_from([True, True, False]),
    )
    def undo(self, which: int, number_shift: int, keyed: bool) -> None:
        body: dict = {"number": max(1, self.seen[which].get("next", 2) - 1 + number_shift)}
        if keyed:
            # The hand this tablet last saw as the last one (stale when the other moved).
            body["client_key"] = self.seen[which].get("last_key")
        self.post(which, "undo", body)

    @rule(which=st.integers(0, 1), in_progress=st.booleans(), versioned=st.booleans())
    def answer(self, which: int, in_progress: bool, versioned: bool) -> None:
        body: dict = {"in_progress": in_progress}
        if versioned and self.seen[which].get("version") is not None:
            body.update(hands=self.seen[which]["hands"], version=self.seen[which]["version"])
        self.post(which, "answer-call", body)

    @rule(which=st.integers(0, 1), seat=st.sampled_from("NESW"))
    def keeper(self, which: int, seat: str) -> None:
        self.post(which, "keeper", {"seat": seat})

    @rule(
        which=st.integers(0, 1),
        agree=st.booleans(),
        seat=st.sampled_from("NESW"),
        versioned=st.booleans(),
    )
    def confirm(self, which: int, agree: bool, seat: str, versioned: bool) -> None:
        name = self.rnd.seats.get(table=1, position=seat).player.name
        body: dict = {"agree": agree, "by": name, "note": "" if agree else "wrong"}
        if versioned and self.seen[which].get("version") is not None:
            body.update(hands=self.seen[which]["hands"], version=self.seen[which]["version"])
        self.post(which, "confirm", body)

    @rule(minutes=st.integers(1, 30))
    def time_passes(self, minutes: int) -> None:
        from datetime import timedelta

        from tournaments.core.models.rounds import Round

        rnd = Round.objects.get(pk=self.rnd.pk)
        if rnd.started_at is not None:
            Round.objects.filter(pk=rnd.pk).update(
                started_at=rnd.started_at - timedelta(minutes=minutes)
            )

    @rule(minutes=st.sampled_from([1, 5, 20, 60, 240]))
    def change_minutes(self, minutes: int) -> None:
        from dataclasses import replace

        from tournaments.core.models.event import Tournament
        from tournaments.core.services import ServiceError
        from tournaments.core.services.tournaments import update_tournament

        t = Tournament.objects.get(pk=self.t.pk)
        # Refused once the limit has passed: what matters is what the tables answer next.
        with contextlib.suppress(ServiceError):
            update_tournament(t, name=t.name, rules=replace(t.rules, round_minutes=minutes), by="d")

    @rule(table=st.integers(1, 2), minutes=st.integers(0, 60))
    def extend(self, table: int, minutes: int) -> None:
        self.check(self.director.post(self.base + f"tables/{table}/extend/", {"minutes": minutes}))

    @rule(including=st.booleans())
    def call_time(self, including: bool) -> None:
        data = {"including_extended": "on"} if including else {}
        self.check(self.director.post(self.base + "clock/call/", data))

    @rule(action=st.sampled_from(["pause", "resume"]))
    def clock(self, action: str) -> None:
        self.check(self.director.post(self.base + f"clock/{action}/"))

    @rule(in_progress=st.sampled_from(["yes", "no"]))
    def director_answer(self, in_progress: str) -> None:
        self.check(
            self.director.post(
                self.base + "tables/1/answer/",
                {"ans-in_progress": in_progress, "ans-reason": "fuzz"},
            )
        )

    @rule(seat=st.sampled_from("NESW"))
    def director_first_dealer(self, seat: str) -> None:
        self.check(
            self.director.post(
                self.base + "tables/1/first-dealer/", {"fd-seat": seat, "fd-reason": "fuzz"}
            )
        )

    @rule()
    def accept(self) -> None:
        self.check(self.director.post(self.base + "tables/1/close/", {"reason": "fuzz"}))

    @rule()
    def finalize(self) -> None:
        self.check(self.director.post(self.base + "finalize/"))

    @rule()
    def reopen(self) -> None:
        self.check(self.director.post(self.base + "reopen/", {"confirm": "Round 1", "reason": "f"}))

    @invariant()
    def everything_answers(self) -> None:
        self.look(0)
        for path in ("", "board/", "tables/1/", "tables/2/"):
            response = self.director.get(self.base + path)
            assert response.status_code == 200, (path, response.status_code)


@pytest.mark.django_db
def test_no_sequence_of_round_end_actions_answers_a_server_error(db):
    from hypothesis.stateful import run_state_machine_as_test

    run_state_machine_as_test(
        RoundEndMachine,
        settings=settings(
            max_examples=12,
            stateful_step_count=20,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        ),
    )

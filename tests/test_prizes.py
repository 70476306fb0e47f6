"""Club-night prizes (issue 23 item 6): the rules on hand-worked numbers, a simulated
event against a recomputation from its hands, the director's page and PDF, and roles."""

from __future__ import annotations

import io
import re
from collections import defaultdict
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.clubs.services import assign
from tournaments.core.models.event import Player
from tournaments.core.models.play import HandEntry, Match
from tournaments.core.models.rounds import Round, Seating, Substitution
from tournaments.domain.prizes import (
    PAIR,
    HandLine,
    PlayerLine,
    PrizeRule,
    SeatLine,
    SubstitutionLine,
    prizes,
)
from tournaments.prizes.models import DefinedPrize
from tournaments.prizes.reads import event_prizes, winner_text

# ---------------------------------------------------------------- the rules, by hand

M1, M2, M3 = (1, 1), (1, 2), (2, 1)  # (round, table)

PLAYERS = [
    PlayerLine("a1", "Ann", "A", 30, 2, 9),
    PlayerLine("a2", "Bea", "A", 30, 1, 4),
    PlayerLine("a3", "Cy", "A", 20, 1, 0),
    PlayerLine("a4", "Dot", "A", 12, 0, -6),
    PlayerLine("a5", "Eve", "A", 12, 1, 2),
    PlayerLine("a6", "Fay", "A", 5, 0, -9, withdrawn=True),
    PlayerLine("b1", "Gus", "B", 25, 1, 7),
    PlayerLine("b2", "Hal", "B", 22, 1, 7),
    PlayerLine("b3", "Ida", "B", 10, 0, -7),
    PlayerLine("b4", "Jo", "B", 18, 0, -7),
]
SEATS = [
    # Round 1 table 1: Ann & Eve (Eve took Bea's seat from hand 5) beat Cy & Dot 10-6.
    SeatLine(M1, "N", "a1", 10, 14),
    SeatLine(M1, "S", "a5", 4, 4),  # Bea's 6 points of hands 1-4 are hers
    SeatLine(M1, "E", "a3", 6, 6),
    SeatLine(M1, "W", "a4", 6, 4),
    # Round 1 table 2: Gus & Hal 10, Ida & Jo 3.
    SeatLine(M2, "N", "b1", 10, 14),
    SeatLine(M2, "S", "b2", 10, 10),
    SeatLine(M2, "E", "b3", 3, 3),
    SeatLine(M2, "W", "b4", 3, 3),
    # Round 2 table 1: Bea & Cy 9, Ann & Dot 7.
    SeatLine(M3, "N", "a2", 9, 9),
    SeatLine(M3, "S", "a3", 9, 9),
    SeatLine(M3, "E", "a1", 7, 7),
    SeatLine(M3, "W", "a4", 7, 7),
]
SUBS = [SubstitutionLine(M1, "S", 5, "a2", 6)]
HANDS = [
    HandLine(M1, 1, "played", "N", True, 5),  # Ann marches alone
    HandLine(M1, 2, "played", "E", False, 1),  # Cy euchred: Ann and Bea (S until hand 5)
    HandLine(M1, 3, "renege", renege_by="W"),  # Dot reneges
    HandLine(M1, 4, "played", "S", True, 5),  # Bea marches alone (her seat until hand 5)
    HandLine(M1, 5, "misdeal"),
    HandLine(M1, 6, "played", "S", True, 5),  # Eve marches alone
    HandLine(M1, 7, "played", "N", True, 5),  # Ann again: 2
    HandLine(M2, 1, "played", "N", True, 5),  # Gus
    HandLine(M2, 2, "played", "N", True, 5),  # Gus again: 2, equal with Ann
    HandLine(M2, 3, "played", "E", True, 4),  # Ida alone, 4 tricks: no march
    HandLine(M2, 4, "played", "S", False, 5),  # Hal marches with a partner: not alone
    HandLine(M3, 1, "played", "N", False, 2),  # Bea euchred: Ann and Dot
]
WHERE = {M1: "round 1, table 1", M2: "round 1, table 2", M3: "round 2, table 1"}


def worked(rules: list[PrizeRule] | None = None) -> dict[str, tuple[int | None, list[str]]]:
    out = prizes(PLAYERS, SEATS, HANDS, SUBS, rules or [], WHERE)
    return {p.rule.name: (p.value, [winner_text(w) for w in p.winners]) for p in out}


def test_the_most_lone_marches_is_shared_by_everyone_on_the_top_count() -> None:
    # Ann 2 (hands 1, 7), Gus 2; Bea 1 (her seat before the substitution), Eve 1.
    assert worked()["Most lone marches"] == (2, ["Ann", "Gus"])


def test_high_and_low_totals_per_division_share_ties_and_skip_the_withdrawn() -> None:
    got = worked()
    assert got["High total, division A"] == (30, ["Ann", "Bea"])
    # Fay (5) withdrew: Dot and Eve share the low total.
    assert got["Low total, division A"] == (12, ["Dot", "Eve"])
    assert got["High total, division B"] == (25, ["Gus"])
    assert got["Low total, division B"] == (10, ["Ida"])


def test_the_best_pair_names_both_partners_and_the_match_and_shares_a_tie() -> None:
    assert worked()["Best pair in a single match"] == (
        10,
        ["Ann & Eve (round 1, table 1)", "Gus & Hal (round 1, table 2)"],
    )


def best_pair_with_a_substitute(position: str) -> tuple[int | None, list[str]]:
    """NS win 10-4 with the reach bonus; Old leaves ``position`` at 6 points for Sub.
    Sub's seat keeps only Sub's hands and the bonus (§6): 4 + 1."""
    match = (3, 1)
    players = [
        PlayerLine("ann", "Ann", "A", 11, 1, 6),
        PlayerLine("sub", "Sub", "B", 5, 1, 6),
        PlayerLine("old", "Old", "B", 6, 0, 0, withdrawn=True),
        PlayerLine("cy", "Cy", "A", 4, 0, -6),
        PlayerLine("dot", "Dot", "B", 4, 0, -6),
    ]
    seats = [
        SeatLine(match, {"N": "S", "S": "N"}[position], "ann", 11, 11),
        SeatLine(match, position, "sub", 5, 5),
        SeatLine(match, "E", "cy", 4, 4),
        SeatLine(match, "W", "dot", 4, 4),
    ]
    subs = [SubstitutionLine(match, position, 7, "old", 6)]
    out = prizes(players, seats, [], subs, [], {match: "round 3, table 1"})
    best = {p.rule.name: p for p in out}["Best pair in a single match"]
    return best.value, [winner_text(w) for w in best.winners]


def test_the_best_pair_scores_the_whole_match_whichever_partner_was_replaced() -> None:
    expected = (11, ["Ann & Sub (round 3, table 1)"])
    assert best_pair_with_a_substitute("N") == expected
    assert best_pair_with_a_substitute("S") == expected


def test_a_directors_prize_reads_the_figure_it_names() -> None:
    got = worked(
        [
            PrizeRule("Euchre king", "euchres"),
            PrizeRule("Most reneges", "reneges"),
            PrizeRule("Cleanest B", "reneges", highest=False, division="B"),
            PrizeRule("Best single match", "best_match"),
            PrizeRule("Worst margin", "margin", highest=False),
            PrizeRule("Most wins, A", "wins", division="A"),
        ]
    )
    # Euchres: Ann 2 (hand 2 of round 1, hand 1 of round 2), Bea 1, Dot 1.
    assert got["Euchre king"] == (2, ["Ann"])
    assert got["Most reneges"] == (1, ["Dot"])
    assert got["Cleanest B"] == (0, ["Gus", "Hal", "Ida", "Jo"])
    assert got["Best single match"] == (14, ["Ann", "Gus"])
    assert got["Worst margin"] == (-7, ["Ida", "Jo"])  # Fay's -9: withdrawn
    assert got["Most wins, A"] == (2, ["Ann"])


def test_a_most_prize_nobody_scored_has_no_winner() -> None:
    out = prizes(PLAYERS, SEATS, [], SUBS, [PrizeRule("Most reneges", "reneges")], WHERE)
    by = {p.rule.name: p for p in out}
    assert by["Most lone marches"].value is None and not by["Most lone marches"].winners
    assert by["Most reneges"].winners == ()


def test_a_prize_names_only_a_known_figure() -> None:
    with pytest.raises(ValueError):
        PrizeRule("Sneaky", "__class__")
    assert PrizeRule("Pairs", PAIR).figure == PAIR


def test_an_event_without_results_has_every_prize_and_no_winner() -> None:
    out = prizes([], [], [])
    assert [p.rule.name for p in out][0] == "Most lone marches"
    assert all(p.value is None for p in out)


# ---------------------------------------------------------------- a simulated event


@pytest.fixture
def event(db):
    from tournaments.core.simulate import simulate

    return simulate(4, seed=5, name="Prize Night")


def recompute(t) -> dict[str, tuple[int | None, list[str]]]:
    """The prizes worked out again from the rows, independently of the rules module:
    every standing hand of a preliminary match, credited to the seat's holder then."""
    from tournaments.core.reads.standings import standings

    rows = [r for rs in standings(t).values() for r in rs]
    ranked = {r.player.pk: r for r in rows if not r.player.withdrawn}
    name = {p.pk: p.name for p in Player.objects.filter(tournament=t)}
    seat = {
        (s.round.number, s.table, s.position): s
        for s in Seating.objects.filter(
            round__tournament=t, round__kind=Round.Kind.PRELIMINARY
        ).select_related("round")
    }
    subs = list(
        Substitution.objects.filter(
            match__round__tournament=t, match__round__kind=Round.Kind.PRELIMINARY
        ).select_related("match__round")
    )

    def at(rnd: int, table: int, position: str, number: int) -> int:
        earlier = [
            s
            for s in subs
            if (s.match.round.number, s.match.table, s.position) == (rnd, table, position)
            and number < s.from_hand
        ]
        if earlier:
            return min(earlier, key=lambda s: s.from_hand).player_out_id
        return seat[(rnd, table, position)].player_id

    marches: dict[int, int] = defaultdict(int)
    for h in HandEntry.objects.filter(
        match__round__tournament=t,
        match__round__kind=Round.Kind.PRELIMINARY,
        state=HandEntry.State.STANDING,
        outcome="played",
        alone=True,
        maker_tricks=5,
    ).select_related("match__round"):
        marches[at(h.match.round.number, h.match.table, h.maker, h.number)] += 1
    out: dict[str, tuple[int | None, list[str]]] = {}
    top = max((marches[p] for p in ranked), default=0)
    out["Most lone marches"] = (
        (top, sorted(name[p] for p in ranked if marches[p] == top)) if top else (None, [])
    )
    for d in ("A", "B"):
        totals = {p: r.record.total for p, r in ranked.items() if r.player.division == d}
        for label, pick in (("High", max), ("Low", min)):
            v = pick(totals.values())
            out[f"{label} total, division {d}"] = (
                v,
                sorted(name[p] for p, x in totals.items() if x == v),
            )
    # A pair is the two who finished the match, with the team's whole match from the
    # match's own score sheet, whichever seat changed hands (docs/rules.md §4.1).
    matches = {
        (m.round.number, m.table): m
        for m in Match.objects.filter(
            round__tournament=t, round__kind=Round.Kind.PRELIMINARY
        ).select_related("round")
    }
    teams = []
    for (rnd, table, pos), s in seat.items():
        if pos in "NE" and s.points is not None:
            mate = seat[(rnd, table, {"N": "S", "E": "W"}[pos])]
            if s.player_id in ranked and mate.player_id in ranked:
                pair = " & ".join(sorted((name[s.player_id], name[mate.player_id])))
                m = matches[(rnd, table)]
                whole = m.score_ns + m.bonus_ns if pos == "N" else m.score_ew + m.bonus_ew
                teams.append((whole, f"{pair} (round {rnd}, table {table})"))
    best = max(v for v, _ in teams)
    out["Best pair in a single match"] = (best, sorted(w for v, w in teams if v == best))
    return out


def shown(t) -> dict[str, tuple[int | None, list[str]]]:
    sheet = event_prizes(t, timezone.now())
    return {p.rule.name: (p.value, [winner_text(w) for w in p.winners]) for p in sheet.prizes}


def test_a_simulated_events_prizes_match_a_recomputation_from_its_hands(event) -> None:
    expected = recompute(event)
    assert shown(event) == expected
    # This seed's night has a shared prize, and every tied winner is listed.
    assert any(len(winners) > 1 for _, winners in expected.values()), expected
    assert expected["Most lone marches"][0]


def test_an_undone_lone_march_no_longer_counts(event) -> None:
    before = shown(event)["Most lone marches"]
    # This seed's night: two players share the prize on one lone march each.
    assert before[0] == 1 and len(before[1]) == 2
    march = HandEntry.objects.filter(
        match__round__tournament=event,
        match__round__kind=Round.Kind.PRELIMINARY,
        state=HandEntry.State.STANDING,
        alone=True,
        maker_tricks=5,
    ).first()
    assert march is not None
    HandEntry.objects.filter(pk=march.pk).update(
        state=HandEntry.State.UNDONE, ended_at=timezone.now()
    )
    after = shown(event)["Most lone marches"]
    assert after == recompute(event)["Most lone marches"]
    assert after[0] == 1 and len(after[1]) == 1


@pytest.mark.parametrize("position", ["N", "S"])
def test_a_pair_whose_seat_changed_hands_scores_the_match_on_its_score_sheet(
    make_tournament, position
) -> None:
    from tests.test_attendance import made, start
    from tournaments.core.services import play, rounds
    from tournaments.core.services.players import register_player, set_withdrawn
    from tournaments.core.services.substitutions import Signed, substitute
    from tournaments.domain.hands import Seat

    t = make_tournament(1, target=5)
    r1 = start(rounds.draw_first_round(t, by="test", seed=2))
    m = r1.matches.select_related("round__tournament").get()
    play.set_first_dealer(m, Seat.W, by="test")
    play.record_hand(m, made("N", 5), client_key="h1", by="t")  # NS 2
    play.record_hand(m, made("E", 3), client_key="h2", by="t")  # EW 1
    out = r1.seats.get(position=position).player
    sub = register_player(t, "Sub Sam", out.division, by="desk", checked_in=True)
    set_withdrawn(out, True, by="director", reason="ill")
    substitute(m, position, 3, sub, Signed("director", "ill"))
    play.record_hand(m, made("N", 5, alone=True), client_key="h3", by="t")  # NS 6
    m.refresh_from_db()
    assert m.is_over and m.winner == "NS"
    stayed = r1.seats.get(position={"N": "S", "S": "N"}[position]).player
    pair = " & ".join(sorted((stayed.name, sub.name)))
    assert shown(t)["Best pair in a single match"] == (
        6 + m.bonus_ns,
        [f"{pair} (round 1, table 1)"],
    )


# ---------------------------------------------------------------- page, PDF and roles


def client_for(django_user_model, name: str, role: str | None, **flags: object) -> Client:
    account = django_user_model.objects.create_user(name, password="x-long-password-1", **flags)
    if role:
        assign(account, role)
    c = Client()
    c.force_login(account)
    return c


def test_the_directors_page_lists_every_prize_and_every_tied_winner(event, director_client):
    expected = recompute(event)
    page = director_client.get(reverse("director:prizes", args=[event.slug])).content.decode()
    table = page[page.index('id="prizes"') : page.index("</table>")]
    rows = [
        " ".join(unescape(re.sub(r"<[^>]+>", " ", row)).split())
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
    ]
    assert len(rows) == len(expected)
    for row, (title, (value, winners)) in zip(rows, expected.items(), strict=True):
        assert row.startswith(f"{title} ") and row.endswith(f" {value}"), row
        for w in winners:
            assert w in row, (w, row)
        assert ("shared by" in row) == (len(winners) > 1)
    html = page
    assert "shared by" in html
    assert "not for announcing yet" not in html


def test_the_prizes_pdf_shows_the_same_winners(event, director_client, tmp_path):
    from pypdf import PdfReader

    r = director_client.get(reverse("sheets:prizes", args=[event.slug]) + "?paper=a4")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    data = b"".join(r.streaming_content)
    (tmp_path / "prizes.pdf").write_bytes(data)  # to look at with pdftoppm
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    flat = " ".join(text.split())
    for title, (_value, winners) in recompute(event).items():
        assert title in flat
        for w in winners:
            assert " ".join(w.split()) in flat, (w, flat)
    assert "shared by" in flat


def test_while_standings_are_hidden_the_page_and_pdf_say_not_to_announce(
    make_tournament, director_client
):
    from pypdf import PdfReader

    from tests.test_public_phones import event_after
    from tournaments.core.reads.visibility import of_event

    t = event_after(make_tournament, 2, 4, hide_standings_last_rounds=2)
    assert of_event(t).hidden
    # The director's copy is the live one: round 4's results count.
    assert shown(t) == recompute(t)
    page = director_client.get(reverse("director:prizes", args=[t.slug])).content.decode()
    assert "not for announcing yet" in page
    r = director_client.get(reverse("sheets:prizes", args=[t.slug]))
    text = " ".join(
        PdfReader(io.BytesIO(b"".join(r.streaming_content))).pages[0].extract_text().split()
    )
    assert "not for announcing yet" in text


def test_only_the_director_sees_the_prizes(event, django_user_model):
    director = client_for(django_user_model, "dora", "director", is_staff=True)
    desk = client_for(django_user_model, "dave", "desk")
    nobody = Client()
    for url in (
        reverse("director:prizes", args=[event.slug]),
        reverse("sheets:prizes", args=[event.slug]),
    ):
        assert director.get(url).status_code == 200
        assert desk.get(url).status_code == 403
        assert nobody.get(url).status_code == 302


def test_the_director_adds_and_removes_a_prize(event, director_client):
    url = reverse("director:prizes", args=[event.slug])
    r = director_client.post(
        url, {"name": "Euchre king", "figure": "euchres", "highest": "1", "division": ""}
    )
    assert r.status_code == 302
    prize = DefinedPrize.objects.get(tournament=event)
    html = director_client.get(url).content.decode()
    assert "Euchre king" in html
    r = director_client.post(reverse("director:prize_remove", args=[event.slug, prize.pk]))
    assert r.status_code == 302 and not DefinedPrize.objects.exists()
    assert event.activity.filter(action="prize-remove").exists()


def test_a_prize_with_an_unknown_figure_is_refused_with_422_and_nothing_added(
    event, director_client
):
    url = reverse("director:prizes", args=[event.slug])
    for bad in (
        {"name": "x", "figure": "__import__('os')", "highest": "1", "division": ""},
        {"name": "  ", "figure": "total", "highest": "1", "division": ""},
        {"name": "x", "figure": "total", "highest": "1", "division": "C"},
    ):
        assert director_client.post(url, bad).status_code == 422
    assert not DefinedPrize.objects.exists()
    assert (
        director_client.post(
            reverse("director:prize_remove", args=[event.slug, 999999])
        ).status_code
        == 404
    )


# Session, user, tournament; the standings (4); seats, hands, substitutions and the
# director's prizes; the newest round twice (visibility, the nav): none per table.
PRIZES_QUERIES = 13


@pytest.mark.parametrize("tables", [4, 12])
def test_the_prizes_page_costs_the_same_queries_at_any_size(
    tables, director_client, django_assert_num_queries
):
    from tournaments.core.simulate import simulate

    t = simulate(tables, seed=5, name=f"Size {tables}")
    DefinedPrize.objects.create(
        tournament=t,
        name="Most euchres",
        figure="euchres",
        created_by="test",
        created_at=timezone.now(),
    )
    url = reverse("director:prizes", args=[t.slug])
    director_client.get(url)
    with django_assert_num_queries(PRIZES_QUERIES):
        assert director_client.get(url).status_code == 200


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_a_browser_the_director_reads_the_prizes_and_adds_one(
    live_server, page, director, tmp_path
):
    from playwright.sync_api import expect

    from tournaments.core.simulate import simulate

    t = simulate(4, seed=5, name="Prize Night")
    expected = recompute(t)
    page.goto(f"{live_server.url}/director/{t.slug}/prizes/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "a-long-director-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("h1")).to_have_text("Prizes")
    rows = page.locator("#prizes tbody tr")
    expect(rows).to_have_count(len(expected))
    page.fill("#id_name", "Euchre king")
    page.select_option("#id_figure", "euchres")
    page.get_by_role("button", name="Add the prize").click()
    expect(rows).to_have_count(len(expected) + 1)
    expect(rows.last).to_contain_text("Euchre king")
    page.screenshot(path=str(tmp_path / "prizes.png"), full_page=True)

"""Registration before the day: applying on the event's page, the caps and the
waitlist, the director's decisions, the player's private link, invitations, the signed
list that travels to the hall, and the abuse rules."""

from __future__ import annotations

import html
import json
import re
import threading
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.test_publish import SLUG, to_club_site
from tournaments.clubs.services import create_club, site_club
from tournaments.core.models.event import Player, Tournament
from tournaments.core.models.log import Activity
from tournaments.core.models.people import Person
from tournaments.core.reads import outbound
from tournaments.core.services import Conflict, ServiceError, players, rounds, standings
from tournaments.core.services.tournaments import create_tournament
from tournaments.core.simulate import Simulation
from tournaments.publishing.services import publish, publish_pending
from tournaments.registration import list_file, reads, services, transfer
from tournaments.registration.models import Registration, RegistrationAttempt, RegistrationPass

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(db) -> Tournament:
    t = create_tournament("Spring Open", by="test", lot_seed=3)
    services.save_settings(t, open=True, cap_total=4, cap_a=None, cap_b=None, by="test")
    return t


def apply(t: Tournament, name: str, division: str = "", key: str = "") -> services.Applied:
    return services.apply(
        t,
        name=name,
        division=division,
        contact=f"{name.split()[0].lower()}@example.com",
        consent=True,
        client_key=key or uuid.uuid4().hex,
    )


def post_form(client, t: Tournament, name: str, address: str = "127.0.0.1", **extra: str):
    data = {
        "name": name,
        "division": "",
        "contact": "",
        "consent": "on",
        "client_key": uuid.uuid4().hex,
        **extra,
    }
    return client.post(reverse("public:register", args=[t.slug]), data, REMOTE_ADDR=address)


# --- applying ----------------------------------------------------------------------------


def test_a_player_registers_on_the_event_page_and_lands_on_her_private_link(client, event):
    page = client.get(reverse("public:event", args=[event.slug]))
    assert reverse("public:register", args=[event.slug]) in page.content.decode()
    answer = post_form(client, event, "Zoë Tremblay", division="A", contact="zoe@example.com")
    assert answer.status_code == 302
    reg = Registration.objects.get()
    assert (reg.name, reg.division, reg.status, reg.consent) == (
        "Zoë Tremblay",
        "A",
        "pending",
        True,
    )
    mine = client.get(answer["Location"])
    assert mine.status_code == 200
    assert "Place 1 of 4" in mine.content.decode()


def test_a_closed_event_offers_no_form_and_refuses_an_application(client, event):
    services.save_settings(event, open=False, cap_total=None, cap_a=None, cap_b=None, by="d")
    page = client.get(reverse("public:event", args=[event.slug]))
    assert reverse("public:register", args=[event.slug]) not in page.content.decode()
    answer = post_form(client, event, "Late Larry")
    assert answer.status_code == 422
    assert "closed" in answer.content.decode()
    assert not Registration.objects.exists()


def test_a_registration_submitted_twice_is_answered_as_the_first(client, event):
    key = uuid.uuid4().hex
    first = post_form(client, event, "Ann Lee", client_key=key)
    second = post_form(client, event, "Ann Leigh", client_key=key, division="B")
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Registration.objects.get().name == "Ann Lee"
    assert RegistrationPass.objects.count() == 1
    assert Activity.objects.filter(action="apply").count() == 1


def test_the_same_name_twice_under_fold_is_refused_without_giving_the_first_link(event):
    apply(event, "Łukasz O'Brien")
    with pytest.raises(Conflict, match="already applied"):
        apply(event, "lukasz  obrien")
    assert Registration.objects.count() == 1


def test_bad_input_is_refused_with_a_message_and_nothing_stored(client, event):
    for name, why in [
        ("", "This field is required"),
        ("x" * 81, "at most 80"),
        ("Evil\u202eName", "invisible"),
    ]:
        answer = post_form(client, event, name)
        assert answer.status_code == 422, name
        assert why in answer.content.decode(), name
    answer = post_form(client, event, "No Consent", consent="")
    assert answer.status_code == 422
    answer = post_form(client, event, "Bad Division", division="C")
    assert answer.status_code == 422
    assert not Registration.objects.exists()


def test_a_ten_megabyte_name_is_a_400_and_nothing_stored(client, event):
    answer = post_form(client, event, "A" * 10_000_000)
    assert answer.status_code == 400
    assert not Registration.objects.exists()


def test_the_honeypot_filled_is_answered_as_received_and_nothing_stored(client, event):
    answer = post_form(client, event, "Bot Bob", website="http://spam.example")
    assert answer.status_code == 200
    assert "received" in answer.content.decode()
    assert not Registration.objects.exists()


def test_a_name_equal_to_a_staff_account_under_fold_is_refused(client, event, director):
    director.first_name, director.last_name = "Émile", "Côté"
    director.save()
    for name in ("DIRECTOR", "emile cote", "Émile  Côté"):
        answer = post_form(client, event, name)
        assert answer.status_code == 422, name
        assert "staff account" in answer.content.decode()
    assert not Registration.objects.exists()


def test_registration_is_throttled_per_address_in_the_database(client, event, settings):
    settings.REGISTRATION_LIMIT_PER_ADDRESS = (3, 3600)
    for n in range(3):
        assert post_form(client, event, f"Player {n}").status_code == 302
    answer = post_form(client, event, "Player 4")
    assert answer.status_code == 429
    assert "Too many" in answer.content.decode()
    assert Registration.objects.count() == 3
    # Another address is counted apart; the rows are what every server process reads.
    other = post_form(client, event, "Player 5", address="10.0.0.9")
    assert other.status_code == 302
    assert RegistrationAttempt.objects.filter(address="127.0.0.1").count() == 3


def test_registration_is_throttled_per_event(client, event, settings):
    settings.REGISTRATION_LIMIT_PER_EVENT = (2, 60)
    assert post_form(client, event, "One", address="10.0.0.1").status_code == 302
    assert post_form(client, event, "Two", address="10.0.0.2").status_code == 302
    assert post_form(client, event, "Three", address="10.0.0.3").status_code == 429
    assert Registration.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_registrations_sent_all_at_once_from_one_address_pass_the_limit_no_more(
    event, settings, monkeypatch
):
    """A burst (several app servers, threads): every request counted the rows before any
    of them wrote its own, so each read the same count and all went on."""
    import contextlib

    settings.REGISTRATION_LIMIT_PER_ADDRESS = (3, 3600)
    burst = 6
    together = threading.Barrier(burst, timeout=3)
    create = RegistrationAttempt.objects.create

    def counted_together(**fields: object) -> RegistrationAttempt:
        with contextlib.suppress(threading.BrokenBarrierError):
            together.wait()
        return create(**fields)

    monkeypatch.setattr(RegistrationAttempt.objects, "create", counted_together)
    answers: list[int] = []

    def register(n: int) -> None:
        try:
            answers.append(post_form(Client(), event, f"Burst {n}").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=register, args=(n,)) for n in range(burst)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert len(answers) == burst and set(answers) <= {302, 429}
    assert answers.count(302) <= 3
    assert Registration.objects.count() == answers.count(302)


# --- caps, the waitlist and promotion --------------------------------------------------------


def test_over_the_cap_applications_go_to_the_waitlist_in_order(event):
    regs = [apply(event, f"Player {n}").registration for n in range(1, 7)]
    assert [r.status for r in regs] == ["pending"] * 4 + ["waitlist"] * 2
    assert reads.standing(regs[5]).waitlist == 2
    assert reads.standing(regs[2]).place == 3


def test_a_division_cap_waitlists_that_division_only(event):
    services.save_settings(event, open=True, cap_total=None, cap_a=1, cap_b=None, by="d")
    assert apply(event, "First A", "A").registration.status == "pending"
    assert apply(event, "Second A", "A").registration.status == "waitlist"
    assert apply(event, "First B", "B").registration.status == "pending"
    assert apply(event, "Either", "").registration.status == "pending"


def test_a_withdrawal_promotes_the_first_on_the_waitlist_and_logs_it(client, event):
    applied = [apply(event, f"Player {n}") for n in range(1, 7)]
    answer = client.post(
        reverse("public:registration_withdraw", args=[event.slug, applied[1].token])
    )
    assert answer.status_code == 302
    statuses = dict(Registration.objects.values_list("name", "status"))
    assert statuses["Player 2"] == "withdrawn"
    assert statuses["Player 5"] == "pending"
    assert statuses["Player 6"] == "waitlist"
    assert any("Promoted Player 5" in a.text for a in Activity.objects.filter(action="waitlist"))
    # The second tap finds it withdrawn: the same answer, nothing promoted twice.
    again = client.post(
        reverse("public:registration_withdraw", args=[event.slug, applied[1].token])
    )
    assert again.status_code == 302
    assert Registration.objects.filter(status="pending").count() == 4


def test_a_decline_frees_the_place_and_the_player_reads_the_reason(client, event):
    applied = [apply(event, f"Player {n}") for n in range(1, 6)]
    services.decide(
        event, applied[0].registration.pk, "decline", by="d", message="Club members only"
    )
    mine = client.get(reverse("public:registration", args=[event.slug, applied[0].token]))
    assert "Declined: Club members only" in mine.content.decode()
    assert Registration.objects.get(name="Player 5").status == "pending"


def test_a_decline_needs_a_reason_and_changes_nothing_without_one(event):
    reg = apply(event, "Player 1").registration
    with pytest.raises(ServiceError, match="reason"):
        services.decide(event, reg.pk, "decline", by="d")
    assert Registration.objects.get().status == "pending"


def test_the_director_reorders_the_waitlist_with_a_reason(director_client, event):
    regs = [apply(event, f"Player {n}").registration for n in range(1, 8)]
    url = reverse("director:registration_reorder", args=[event.slug])
    refused = director_client.post(url, {"registration": regs[6].pk, "position": "1"})
    assert refused.status_code == 422
    answer = director_client.post(
        url, {"registration": regs[6].pk, "position": "1", "reason": "travelled far"}
    )
    assert answer.status_code == 302
    line = Registration.objects.filter(status="waitlist").order_by("queue")
    assert [r.name for r in line] == ["Player 7", "Player 5", "Player 6"]
    logged = Activity.objects.get(action="waitlist")
    assert logged.reason == "travelled far"
    services.withdraw(RegistrationPass.objects.get(registration=regs[0]).token)
    assert Registration.objects.get(name="Player 7").status == "pending"


def test_a_raised_cap_promotes_at_once(event):
    [apply(event, f"Player {n}") for n in range(1, 7)]
    promoted = services.save_settings(event, open=True, cap_total=5, cap_a=None, cap_b=None, by="d")
    assert promoted == ["Player 5"]


@pytest.mark.django_db(transaction=True)
def test_a_promotion_racing_a_withdrawal_is_answered_as_the_first_each_time(event):
    """A decline (which promotes) and a withdrawal tapped twice (two servers), all at
    once: the settings' lock queues them; the waitlist moves up by exactly two, in order,
    and the second tap finds the first's answer."""
    applied = [apply(event, f"Player {n}") for n in range(1, 8)]
    calls = [
        lambda: services.decide(event, applied[0].registration.pk, "decline", by="d", message="no"),
        lambda: services.withdraw(applied[1].token),
        lambda: services.withdraw(applied[1].token),
    ]
    errors: list[BaseException] = []

    def run(call) -> None:
        try:
            call()
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    if connection.vendor == "postgresql":
        threads = [threading.Thread(target=run, args=(c,)) for c in calls]
        [t.start() for t in threads]
        [t.join() for t in threads]
    else:  # one writer: the same calls one after the other
        [run(c) for c in calls]
    assert not errors
    statuses = dict(Registration.objects.values_list("name", "status"))
    assert (statuses["Player 5"], statuses["Player 6"], statuses["Player 7"]) == (
        "pending",
        "pending",
        "waitlist",
    )
    assert Registration.objects.filter(status="pending").count() == 4
    assert Activity.objects.filter(action="waitlist").count() == 2
    assert Activity.objects.filter(action="withdraw").count() == 1


# --- the director's decisions ---------------------------------------------------------------


def test_accepting_makes_a_player_through_the_players_service(director_client, event):
    reg = apply(event, "Marie Roy", "").registration
    url = reverse("director:registration_decide", args=[event.slug])
    refused = director_client.post(url, {"registration": reg.pk, "action": "accept"})
    assert refused.status_code == 422
    assert "Choose division" in refused.content.decode()
    answer = director_client.post(
        url, {"registration": reg.pk, "action": "accept", "division": "B"}
    )
    assert answer.status_code == 302
    player = Player.objects.get()
    assert (player.name, player.division, player.tournament_id) == ("Marie Roy", "B", event.pk)
    assert Registration.objects.get().player == player
    assert player.person_link.person.name == "Marie Roy"
    again = director_client.post(url, {"registration": reg.pk, "action": "accept", "division": "B"})
    assert again.status_code == 302
    assert Player.objects.count() == 1


def test_a_close_match_is_proposed_never_merged(director_client, event):
    known = Person.objects.create(
        club=event.club,
        name="Jean-Marc Dubois",
        name_key="jean marc dubois",
        created_at=event.created_at,
        rating_mu=30.0,
        rating_sigma=2.0,
        rating_matches=40,
    )
    reg = apply(event, "Jean Marc Duboi").registration
    page = director_client.get(reverse("director:registrations", args=[event.slug]))
    assert "Jean-Marc Dubois" in page.content.decode()
    services.decide(event, reg.pk, "accept", by="d", division="A")
    link = Player.objects.get().person_link
    assert link.person != known
    assert link.person.proposals.filter(candidate=known).exists()


def test_the_rating_of_a_known_person_suggests_the_division(director_client, event):
    for name, mu in [("Strong Sam", 35.0), ("Weak Will", 15.0)]:
        Person.objects.create(
            club=event.club,
            name=name,
            name_key=name.lower(),
            created_at=event.created_at,
            rating_mu=mu,
            rating_sigma=2.0,
            rating_matches=30,
        )
        apply(event, name)
    regs = list(Registration.objects.all())
    suggested = reads.suggested_divisions(event, regs)
    assert {r.name: suggested[r.pk] for r in regs} == {"Strong Sam": "A", "Weak Will": "B"}
    page = director_client.get(reverse("director:registrations", args=[event.slug]))
    assert "rating suggests A" in page.content.decode()


def test_asking_for_a_change_shows_the_message_and_the_player_answers(client, event):
    applied = apply(event, "Bobby")
    services.decide(
        event, applied.registration.pk, "change", by="d", message="Your full name, please"
    )
    url = reverse("public:registration", args=[event.slug, applied.token])
    assert "Your full name, please" in client.get(url).content.decode()
    answer = client.post(
        reverse("public:registration_answer", args=[event.slug, applied.token]),
        {"name": "Bobby Orr", "division": "A"},
    )
    assert answer.status_code == 302
    reg = Registration.objects.get()
    assert (reg.name, reg.status, reg.division) == ("Bobby Orr", "pending", "A")


def test_a_desk_account_cannot_decide(client, event, django_user_model):
    from tournaments.clubs.services import assign

    desk = django_user_model.objects.create_user("desk1", password="x-long-password")
    assign(desk, "desk")
    client.force_login(desk)
    reg = apply(event, "Player 1").registration
    answer = client.post(
        reverse("director:registration_decide", args=[event.slug]),
        {"registration": reg.pk, "action": "accept", "division": "A"},
    )
    assert answer.status_code == 403
    assert not Player.objects.exists()


def test_an_application_of_another_event_is_a_404_to_this_events_director(director_client, event):
    other = create_tournament("Other Night", by="test", lot_seed=1)
    services.save_settings(other, open=True, cap_total=None, cap_a=None, cap_b=None, by="t")
    reg = apply(other, "Someone Else").registration
    answer = director_client.post(
        reverse("director:registration_decide", args=[event.slug]),
        {"registration": reg.pk, "action": "accept", "division": "A"},
    )
    assert answer.status_code == 404
    assert Registration.objects.get().status == "pending"


# --- the private link -------------------------------------------------------------------------


def test_a_forged_or_revoked_link_is_a_404(client, event):
    applied = apply(event, "Player 1")
    for token in ("x" * 32, "short", applied.token + "x"):
        assert client.get(f"/e/{event.slug}/r/{token}/").status_code == 404
    other = create_tournament("Other Night", by="test", lot_seed=1)
    assert (
        client.get(reverse("public:registration", args=[other.slug, applied.token])).status_code
        == 404
    )
    new = services.revoke(event, applied.registration.pk, by="d")
    revoked = client.get(reverse("public:registration", args=[event.slug, applied.token]))
    assert revoked.status_code == 404
    assert "revoked" in revoked.content.decode()
    assert client.get(reverse("public:registration", args=[event.slug, new])).status_code == 200
    assert (
        client.post(
            reverse("public:registration_withdraw", args=[event.slug, applied.token])
        ).status_code
        == 404
    )
    assert Registration.objects.get().status == "pending"


def test_the_pass_qr_encodes_the_private_link_at_the_hall_address(client, event, settings):
    settings.HALL_URL = "http://192.168.1.20:8000"
    applied = apply(event, "Player 1")
    services.decide(event, applied.registration.pk, "accept", by="d", division="A")
    page = client.get(reverse("public:registration", args=[event.slug, applied.token]))
    assert "Registered, 1 of 4" in page.content.decode()
    qr = client.get(reverse("public:registration_qr", args=[event.slug, applied.token]))
    assert qr.status_code == 200
    assert qr["Content-Type"] == "image/svg+xml"


def test_once_the_event_starts_the_link_shows_the_players_card(client, event):
    applied = apply(event, "Player 1")
    services.decide(event, applied.registration.pk, "accept", by="d", division="A")
    Tournament.objects.filter(pk=event.pk).update(status="preliminary")
    page = client.get(reverse("public:registration", args=[event.slug, applied.token]))
    assert page.status_code == 200
    assert "public/card.html" in [t.name for t in page.templates]
    refused = client.post(reverse("public:registration_withdraw", args=[event.slug, applied.token]))
    assert refused.status_code == 409
    assert Registration.objects.get().status == "accepted"


# --- invitations ------------------------------------------------------------------------------


def test_invitations_from_a_csv_give_each_regular_a_private_link(director_client, event, client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    csv = b"name,division\nAlice Regular,A\nBob Regular,\n"
    answer = director_client.post(
        reverse("director:registration_invite", args=[event.slug]),
        {"file": SimpleUploadedFile("regulars.csv", csv)},
    )
    assert answer.status_code == 302
    links = director_client.get(reverse("director:registration_invitations", args=[event.slug]))
    text = links.content.decode()
    tokens = re.findall(r"/r/([A-Za-z0-9_-]+)/", text)
    assert len(tokens) == 2 and len(set(tokens)) == 2
    answer = client.post(
        reverse("public:registration_answer", args=[event.slug, tokens[0]]),
        {"division": "A", "consent": "on"},
    )
    assert answer.status_code == 302
    assert Registration.objects.get(name="Alice Regular").status == "pending"
    bad = director_client.post(
        reverse("director:registration_invite", args=[event.slug]),
        {"file": SimpleUploadedFile("regulars.csv", b"Carol,Z\nAlice Regular\n")},
    )
    assert bad.status_code == 422
    assert Registration.objects.count() == 2


def test_invitations_from_a_french_spreadsheet_read_its_semicolons(event):
    # Excel saves CSV in French with ';' between cells: the header "nom;division" and
    # each "name;division" line were invited as one name each.
    report = services.invite(event, b"nom;division\r\nAnn Lee;A\r\nBob Ray;\r\n", by="d")
    assert report.errors == []
    assert sorted(Registration.objects.values_list("name", "division")) == [
        ("Ann Lee", "A"),
        ("Bob Ray", ""),
    ]


# --- the list travels to the hall --------------------------------------------------------------


@pytest.fixture
def accepted_list(event) -> str:
    for n in range(1, 4):
        reg = apply(event, f"Player {n}").registration
        services.decide(event, reg.pk, "accept", by="d", division="AB"[n % 2])
    return transfer.export_signed(event)


def on_another_server(event: Tournament) -> tuple[str, list[str]]:
    """The club's key and passes, then the club's event gone from this database: the hall
    is another server, which holds none of the club site's rows."""
    key = services.settings_for(event).transfer_key
    tokens = list(
        RegistrationPass.objects.filter(registration__tournament=event).values_list(
            "token", flat=True
        )
    )
    Tournament.objects.filter(pk=event.pk).delete()
    return key, tokens


def test_the_hall_imports_the_signed_list_once_and_twice_changes_nothing(event, accepted_list):
    key, tokens = on_another_server(event)
    hall = create_tournament("Spring Open at the hall", by="hall", lot_seed=5)
    done = transfer.import_signed(hall, accepted_list, key, by="hall")
    assert sorted(done.added) == ["Player 1", "Player 2", "Player 3"]
    again = transfer.import_signed(hall, accepted_list, key, by="hall")
    assert (again.added, again.unchanged) == ([], 3)
    assert hall.players.count() == 3
    assert reads.read_pass(hall, tokens[0]).player.tournament == hall


def test_a_pass_revoked_at_the_club_is_revoked_at_the_hall_by_the_next_list(event, accepted_list):
    """A player lost her phone after the list went to the hall: the club revokes her link
    and gives her a new one. The next list the hall imports carries the new pass: the desk
    scans it, and the lost one is refused there with the reason (docs/series.md: "refused
    everywhere ..., at the desk too"); nothing else changes."""
    reg = Registration.objects.get(tournament=event, name="Player 1")
    lost = reads.live_token(reg)
    new = services.revoke(event, reg.pk, by="d")
    later_list = transfer.export_signed(event)
    key, _tokens = on_another_server(event)
    hall = create_tournament("Spring Open at the hall", by="hall", lot_seed=5)
    transfer.import_signed(hall, accepted_list, key, by="hall")
    assert reads.read_pass(hall, lost).refusal == ""
    again = transfer.import_signed(hall, later_list, key, by="hall")
    assert (again.added, again.unchanged, hall.players.count()) == ([], 3, 3)
    assert "revoked" in reads.read_pass(hall, lost).refusal
    found = reads.read_pass(hall, new)
    assert found.refusal == "" and found.player is not None and found.player.name == "Player 1"
    transfer.import_signed(hall, later_list, key, by="hall")  # twice: nothing more
    assert RegistrationPass.objects.filter(registration__tournament=hall).count() == 4


def test_the_list_tried_in_a_rehearsal_imports_into_the_real_event_with_its_passes(
    event, accepted_list
):
    """The director tried the desk's scan in a rehearsal with the club's list, then made
    the real event and imports the same list there: it is imported (not refused as "the
    pass is already another registration's"), and the passes check in at the real event."""
    key, tokens = on_another_server(event)
    rehearsal = create_tournament("Spring Open rehearsal", by="hall", rehearsal=True)
    transfer.import_signed(rehearsal, accepted_list, key, by="hall")
    assert reads.read_pass(rehearsal, tokens[0]).refusal == ""
    real = create_tournament("Spring Open at the hall", by="hall", lot_seed=5)
    done = transfer.import_signed(real, accepted_list, key, by="hall")
    assert sorted(done.added) == ["Player 1", "Player 2", "Player 3"]
    for token in tokens:
        found = reads.read_pass(real, token)
        assert found.refusal == "" and found.player is not None
        assert found.player.tournament == real
        assert reads.read_pass(rehearsal, token).refusal.startswith("This pass is for another")
    # Passes of another application are still refused, and nothing is imported then.
    other = create_tournament("Another night", by="hall")
    data = json.loads(list_file.signer(key).unsign(accepted_list.strip()))
    data["players"][0]["uid"] = str(uuid.uuid4())
    forged = list_file.signer(key).sign(json.dumps(data)) + "\n"
    with pytest.raises(ServiceError, match="already another registration"):
        transfer.import_signed(other, forged, key, by="hall")
    assert not other.players.exists()


def test_a_signed_list_altered_by_one_byte_is_refused_and_nothing_stored(event, accepted_list):
    key = services.settings_for(event).transfer_key
    hall = create_tournament("Hall", by="hall", lot_seed=5)
    data = accepted_list.encode()
    for at in (0, len(data) // 3, len(data) // 2, len(data) - 3):
        altered = bytearray(data)
        altered[at] = altered[at] ^ 0x01
        with pytest.raises(ServiceError):
            transfer.import_signed(hall, altered.decode("utf-8", "replace"), key, by="hall")
    with pytest.raises(ServiceError, match="signature"):
        transfer.import_signed(
            hall, accepted_list, key[:-1] + ("A" if key[-1] != "A" else "B"), by="hall"
        )
    assert not hall.players.exists()
    assert not Registration.objects.filter(tournament=hall).exists()


def test_the_hall_imports_the_list_through_its_page(director_client, event, accepted_list):
    from django.core.files.uploadedfile import SimpleUploadedFile

    key, _ = on_another_server(event)
    hall = create_tournament("Hall", by="hall", lot_seed=5)
    url = reverse("director:registration_import", args=[hall.slug])
    bad = director_client.post(
        url, {"file": SimpleUploadedFile("x.signed", b"\xff\xfe"), "key": key}
    )
    assert bad.status_code == 422
    answer = director_client.post(
        url, {"file": SimpleUploadedFile("x.signed", accepted_list.encode()), "key": key}
    )
    assert answer.status_code == 302
    assert hall.players.count() == 3


def test_fetching_the_list_refuses_a_mangled_key_and_sends_an_accented_address_encoded(
    director_client, event, monkeypatch
):
    # A key pasted with a line break, an address with an accent and an address whose
    # server does not speak HTTP (a wrong port) were each a 500.
    import http.client
    import urllib.error

    sent: list[str] = []

    def urlopen(request, timeout):
        sent.append(request.full_url)
        if ":22/" in request.full_url:
            raise http.client.BadStatusLine("SSH-2.0-OpenSSH_9.2")
        raise urllib.error.URLError("down")

    monkeypatch.setattr(outbound, "urlopen", urlopen)
    hall = create_tournament("Hall", by="hall", lot_seed=5)
    url = reverse("director:registration_import", args=[hall.slug])
    for address, key, message in [
        ("https://club.example/x.signed", "ab\ncd", "Type the event's key"),
        ("https://club.example/x.signed", "clé", "Type the event's key"),
        ("https://club.example/été.signed", "abcd", "cannot be reached (down)"),
        ("https://club.example:22/x.signed", "abcd", "cannot be reached (SSH-2.0-OpenSSH_9.2)"),
    ]:
        answer = director_client.post(url, {"url": address, "key": key})
        assert answer.status_code == 422, address
        assert message in html.unescape(answer.content.decode()), address
    assert sent[0] == "https://club.example/%C3%A9t%C3%A9.signed"
    assert not hall.players.exists()


def test_the_club_site_answers_the_signed_list_only_to_a_bearer_of_the_key(
    client, event, accepted_list
):
    url = reverse("public:signed_list", args=[event.slug])
    assert client.get(url).status_code == 403
    assert client.get(url, HTTP_AUTHORIZATION="Bearer wrong-key").status_code == 403
    key = services.settings_for(event).transfer_key
    answer = client.get(url, HTTP_AUTHORIZATION=f"Bearer {key}")
    assert answer.status_code == 200
    on_another_server(event)
    hall = create_tournament("Hall", by="hall", lot_seed=5)
    assert len(transfer.import_signed(hall, answer.content.decode(), key, by="hall").added) == 3


# --- contact data is never public --------------------------------------------------------------


def test_a_registrants_contact_is_on_no_public_page_or_export(client, director_client, event):
    applied = services.apply(
        event,
        name="Private Pat",
        division="A",
        contact="pat.secret@example.com",
        consent=True,
        client_key="k1",
    )
    services.decide(event, applied.registration.pk, "accept", by="d")
    director_page = director_client.get(reverse("director:registrations", args=[event.slug]))
    assert "pat.secret@example.com" in director_page.content.decode()  # the director's only
    key = services.settings_for(event).transfer_key
    public_urls = [
        reverse("public:index"),
        reverse("public:event", args=[event.slug]),
        reverse("public:event", args=[event.slug]) + "?q=pat",
        reverse("public:find", args=[event.slug]) + "?q=pat",
        reverse("public:register", args=[event.slug]),
        reverse("public:registration", args=[event.slug, applied.token]),
        reverse("public:standings", args=[event.slug]),
        reverse("public:projector", args=[event.slug]),
        reverse("public:card", args=[event.slug, Player.objects.get().pk]),
    ]
    from django.test import Client

    anonymous = Client()
    for url in public_urls:
        answer = anonymous.get(url)
        assert answer.status_code == 200, url
        assert b"pat.secret" not in answer.content, url
    exports = [
        anonymous.get(
            reverse("public:signed_list", args=[event.slug]), HTTP_AUTHORIZATION=f"Bearer {key}"
        ).content,
        director_client.get(reverse("director:registration_export", args=[event.slug])).content,
        director_client.get(
            reverse("director:registration_invitations", args=[event.slug])
        ).content,
        director_client.get(reverse("director:standings_csv", args=[event.slug, "A"])).content,
    ]
    from tournaments.series.export import export_results

    exports.append(str(export_results(event)).encode())
    # The scan reads pages that do show the registrant (a scan of empty pages proves nothing).
    assert b"Private P." in anonymous.get(public_urls[2]).content  # her public name
    assert b"Private Pat" in exports[0] and b"Private Pat" in exports[4]
    for content in exports:
        assert b"pat.secret" not in content


@pytest.mark.django_db(transaction=True)
def test_the_hall_fetching_with_a_wrong_key_or_no_connection_is_told_why(
    live_server, director_client, event, accepted_list
):
    hall = create_tournament("Hall", by="hall", lot_seed=5)
    url = reverse("director:registration_import", args=[hall.slug])
    address = live_server.url + reverse("public:signed_list", args=[event.slug])
    refused = director_client.post(url, {"url": address, "key": "not-the-key"})
    assert refused.status_code == 422
    assert "refused (403)" in refused.content.decode()
    # A port nothing listens on: the hall without a connection.
    offline = director_client.post(url, {"url": "http://127.0.0.1:9/x.signed", "key": "k"})
    assert offline.status_code == 422
    assert "cannot be reached" in offline.content.decode()
    assert not hall.players.exists()


def test_a_shared_site_fetches_no_list_from_an_address_of_its_own_network(director_client, event):
    from tests.test_publish import Neighbour

    create_club("Other club", "other")
    hall = create_tournament("Hall", by="hall", lot_seed=5)
    url = reverse("director:registration_import", args=[hall.slug])
    neighbour = Neighbour()
    try:
        refused = director_client.post(url, {"url": neighbour.url, "key": "k"})
    finally:
        neighbour.close()
    assert refused.status_code == 422
    assert "own network" in refused.content.decode()
    assert neighbour.hits == []
    assert not hall.players.exists()


def test_declining_an_accepted_player_before_the_day_withdraws_her_and_promotes(event):
    applied = [apply(event, f"Player {n}") for n in range(1, 6)]
    first = applied[0].registration.pk
    services.decide(event, first, "accept", by="d", division="A")
    services.decide(event, first, "decline", by="d", message="Not a member after all")
    player = Player.objects.get(name="Player 1")
    assert player.withdrawn and player.withdrawn_after_round == 0
    assert Registration.objects.get(name="Player 5").status == "pending"


def test_a_name_the_door_already_typed_in_is_that_player_on_import(event, accepted_list):
    from tournaments.core.services.players import register_player

    key, tokens = on_another_server(event)
    hall = create_tournament("Hall", by="hall", lot_seed=5)
    door = register_player(hall, "player 2", "B", by="desk", checked_in=True)
    done = transfer.import_signed(hall, accepted_list, key, by="hall")
    assert len(done.added) == 3
    assert hall.players.count() == 3
    assert Registration.objects.get(tournament=hall, player=door).name == "player 2"


def test_no_public_template_reads_a_registrants_contact():
    """Beside the scan above: no template a player's page renders names the stored
    contact (the form re-shows only what the same player just typed)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "templates" / "public"
    readers = {
        path.name
        for path in root.glob("*.html")
        if re.search(r"\b(?!form\.)\w+\.contact\b", path.read_text())
    }
    assert readers == set()
    probe = "{{ reg.contact }}"
    assert re.search(r"\b(?!form\.)\w+\.contact\b", probe)


@pytest.mark.parametrize(
    "field, value",
    [
        ("name", "Nul\x00Name"),
        ("contact", "a\x00b"),
        ("contact", "x" * 121),
        ("division", "\x00"),
        ("client_key", "k" * 65),
        ("client_key", ""),
    ],
)
def test_odd_fields_are_refused_with_a_422_and_nothing_stored(client, event, field, value):
    name = value if field == "name" else "Odd Olga"
    extra = {} if field == "name" else {field: value}
    answer = post_form(client, event, name, **extra)
    assert answer.status_code in (400, 422), field
    assert not Registration.objects.exists()


# --- the hall's results arrive at the club site ---------------------------------------------


def without_passes(signed: str, key: str) -> str:
    """The signed list without its passes, signed again with the event's key: the hall and
    the club share this test database, where a pass token is one registration's only."""
    data = json.loads(list_file.signer(key).unsign(signed.strip()))
    for player in data["players"]:
        player["token"] = ""
    return list_file.signer(key).sign(json.dumps(data)) + "\n"


def club_lists(client) -> tuple[str, str]:
    page = client.get(reverse("club_public:club", args=[site_club().slug])).content.decode()
    current, past = page.split('id="current"')[1], page.split('id="past"')[1]
    return current.split("</ul>")[0], past.split("</ul>")[0]


def test_the_clubs_registration_copy_follows_the_halls_results_to_the_end(
    client, event, monkeypatch
):
    """The club site took the registrations under its slug; the hall played the event under
    its own and publishes it under a third. Once the results arrive, the club's copy follows
    them: its players' links say the event is under way, then played, and lead to each one's
    results; nobody can withdraw; the club page lists the event once, as its results."""
    sim = Simulation(1, seed=21, name="Spring Open at the hall")
    hall = sim.setup()
    Tournament.objects.filter(pk=hall.pk).update(preliminary_rounds=2)
    hall.refresh_from_db()
    names = list(hall.players.order_by("pk").values_list("name", "division"))[:3]
    links = {}
    for name, division in names:
        applied = apply(event, name)
        services.decide(event, applied.registration.pk, "accept", by="d", division=division)
        links[name] = applied.token
    waiting = apply(event, "Wanda Waiting").token  # never accepted
    key = services.settings_for(event).transfer_key
    listed = transfer.import_signed(
        hall, without_passes(transfer.export_signed(event), key), key, by="hall"
    )
    assert listed.added == [n for n, _ in names]  # the door's players, given their uids
    sim.play_round(hall.rounds.get(number=1))
    # The hall publishes (its Publish button) to the club site, which takes the event
    # under the slug it granted a token for (SLUG).
    to_club_site(client, monkeypatch, hall, by="hall")
    assert publish(hall, by="hall").last_error == ""

    results = Tournament.objects.get(slug=SLUG)
    event.refresh_from_db()
    assert event.status == "preliminary"  # no longer taking registrations: under way
    assert event.played_as == results
    first = names[0][0]
    mine = client.get(reverse("public:registration", args=[event.slug, links[first]]))
    text = mine.content.decode()
    card = reverse("public:card", args=[results.slug, results.players.get(name=first).pk])
    assert "This event is under way." in text and card in text
    assert 'id="withdraw"' not in text
    refused = client.post(reverse("public:registration_withdraw", args=[event.slug, links[first]]))
    assert refused.status_code == 409
    assert Registration.objects.get(tournament=event, name=first).status == "accepted"
    current, past = club_lists(client)
    assert f"/{results.slug}/" in current and f"/{event.slug}/" not in current + past
    home = client.get(reverse("public:index")).content.decode()
    assert f"/e/{results.slug}/" in home and f"/e/{event.slug}/" not in home
    assert client.get(reverse("public:event", args=[event.slug]))["Location"] == reverse(
        "public:event", args=[results.slug]
    )

    # The hall plays on to the end and publishes again: the copy is over too.
    rounds.seat_next_round(hall, by="sim", now=sim.clock)
    sim.play_round(hall.rounds.get(number=2))
    final = standings.seed_final(hall, by="sim", now=sim.clock)
    while standings.champions(hall) is None:
        game = final.matches.order_by("-game").first()
        assert game is not None
        sim.play_match(game, sim.clock, None)
    standings.finish_event(hall, by="sim", now=sim.clock, backup=False)
    assert publish_pending(by="hall")[0].last_error == ""
    event.refresh_from_db()
    assert (event.played_as_id, event.status) == (results.pk, "finished")
    for name, _division in names:
        text = client.get(reverse("public:registration", args=[event.slug, links[name]])).content
        player = Tournament.objects.get(pk=results.pk).players.get(name=name)
        assert "This event has been played." in text.decode()
        assert reverse("public:card", args=[results.slug, player.pk]) in text.decode()
        assert b'id="withdraw"' not in text and b'id="pass"' not in text
    other = client.get(reverse("public:registration", args=[event.slug, waiting])).content
    assert b"This event has been played." in other and b'id="my-results"' not in other
    assert reverse("public:standings", args=[results.slug]).encode() in other
    assert b'id="withdraw"' not in other
    current, past = club_lists(client)
    assert f"/{event.slug}/" not in current + past
    assert f"/{results.slug}/" not in current and past.count(f"/{results.slug}/") == 1
    copies = Activity.objects.filter(tournament=event, action="publish")
    assert copies.count() == 1  # said once, when the results first arrived


NAMES = [("Ann Avery", "A"), ("Bea Brown", "B"), ("Cal Cole", "A"), ("Dee Dunn", "B")]


def registered_then_published(client, event, monkeypatch) -> tuple[dict[str, str], Tournament]:
    """Four players accepted at the club; the hall (another server: its own club, so only
    the club's copy holds these uids) imports the signed list and publishes before it
    draws round 1. Returns each player's private link and the hall's event."""
    links = {}
    for name, division in NAMES:
        applied = apply(event, name)
        services.decide(event, applied.registration.pk, "accept", by="d", division=division)
        links[name] = applied.token
    key = services.settings_for(event).transfer_key
    hall_club = create_club("The hall", "the-hall")
    hall = create_tournament("Spring Open at the hall", by="hall", lot_seed=5, club=hall_club)
    transfer.import_signed(hall, without_passes(transfer.export_signed(event), key), key, by="hall")
    to_club_site(client, monkeypatch, hall, by="hall")
    assert publish(hall, by="hall").last_error == ""
    return links, hall


def hall_draws_round_1_and_publishes(hall: Tournament) -> None:
    players.set_checked_in(hall, list(hall.players.values_list("pk", flat=True)), True, by="desk")
    rounds.draw_first_round(hall, by="hall", seed=1)
    assert publish_pending(by="hall")[0].last_error == ""


def test_a_publish_before_round_1_lists_the_event_once_and_keeps_the_passes(
    client, event, monkeypatch
):
    """The hall imports the signed list, checks players in and publishes before it draws
    round 1: from that first publish the club page lists the event once (as its results),
    the copy's page leads there, and each accepted player's link still says where she
    stands (not "under way") and keeps her pass for the desk."""
    links, hall = registered_then_published(client, event, monkeypatch)
    results = Tournament.objects.get(slug=SLUG)
    assert results.status == "registration"
    event.refresh_from_db()
    assert (event.played_as_id, event.status) == (results.pk, "registration")
    current, past = club_lists(client)
    assert current.count("<li>") == 1 and f"/{results.slug}/" in current
    assert f"/{event.slug}/" not in current + past
    home = client.get(reverse("public:index")).content.decode()
    assert f"/e/{results.slug}/" in home and f"/e/{event.slug}/" not in home
    assert client.get(reverse("public:event", args=[event.slug]))["Location"] == reverse(
        "public:event", args=[results.slug]
    )
    for name, _division in NAMES:
        text = client.get(reverse("public:registration", args=[event.slug, links[name]]))
        page = text.content.decode()
        assert "under way" not in page and "has been played" not in page
        assert "Registered" in page and 'id="pass"' in page

    # The hall draws round 1 and publishes: now it is under way, her card in the results.
    hall_draws_round_1_and_publishes(hall)
    event.refresh_from_db()
    assert event.status == "preliminary"
    page = client.get(reverse("public:registration", args=[event.slug, links["Ann Avery"]]))
    card = reverse("public:card", args=[results.slug, results.players.get(name="Ann Avery").pk])
    assert "This event is under way." in page.content.decode() and card in page.content.decode()
    assert Activity.objects.filter(tournament=event, action="publish").count() == 1


def test_a_player_who_withdrew_at_the_club_after_the_list_left_reads_withdrawn_not_a_card(
    client, event, monkeypatch
):
    """The list went to the hall with her on it; she withdrew from her link the next
    morning and never came. The hall's results hold her as the list's name, never checked
    in: her link says she withdrew, not "My card" leading to "You are not checked in. Go to
    the desk". A player who withdrew and came anyway (checked in at the hall) keeps her card."""
    links, hall = registered_then_published(client, event, monkeypatch)
    for name in ("Bea Brown", "Cal Cole"):
        answer = client.post(
            reverse("public:registration_withdraw", args=[event.slug, links[name]])
        )
        assert answer.status_code in (200, 302)
        assert Registration.objects.get(tournament=event, name=name).status == "withdrawn"
    players.register_player(hall, "Walk-in Wes", "B", by="desk", checked_in=True)
    here = hall.players.exclude(name="Bea Brown").values_list("pk", flat=True)
    players.set_checked_in(hall, list(here), True, by="desk")  # Cal came anyway
    rounds.draw_first_round(hall, by="hall", seed=1)
    assert publish_pending(by="hall")[0].last_error == ""
    results = Tournament.objects.get(slug=SLUG)
    bea = client.get(reverse("public:registration", args=[event.slug, links["Bea Brown"]]))
    page = bea.content.decode()
    assert "This event is under way." in page and 'id="my-results"' not in page
    assert 'id="own-status"' in page and "Withdrawn" in page
    cal = client.get(reverse("public:registration", args=[event.slug, links["Cal Cole"]]))
    card = reverse("public:card", args=[results.slug, results.players.get(name="Cal Cole").pk])
    assert card in cal.content.decode() and 'id="own-status"' not in cal.content.decode()


def test_a_player_registered_at_the_club_and_played_at_the_hall_has_the_event_once(
    client, director_client, event, monkeypatch
):
    """Accepting her made her a player of the club's copy, linked to her person; the hall's
    results link her again. Her page and the People list count the event once (its
    results), not the copy as a second event with no place and no match."""
    _links, hall = registered_then_published(client, event, monkeypatch)
    hall_draws_round_1_and_publishes(hall)
    results = Tournament.objects.get(slug=SLUG)
    person = Person.objects.get(links__player__tournament=results, name="Ann Avery")
    assert person.links.count() == 2  # the copy's player and the results' player
    page = director_client.get(reverse("league:person", args=[person.pk])).content.decode()
    assert f'id="event-{results.slug}"' in page and f'id="event-{event.slug}"' not in page
    assert "1 event " in page
    listed = director_client.get(reverse("league:people"), {"q": "Ann Avery"}).context["page"]
    assert [p.events for p in listed] == [1]


def test_a_card_kept_from_the_clubs_event_page_leads_to_her_card_in_the_results(
    client, event, monkeypatch
):
    """Before the day she found herself on the club's event page (her card there: "not
    checked in yet"). Once the hall's results arrive, that card, its part the phone polls
    and her ledger lead to hers in the results, never the club's stale copy."""
    _links, hall = registered_then_published(client, event, monkeypatch)
    hall_draws_round_1_and_publishes(hall)
    results = Tournament.objects.get(slug=SLUG)
    for name, _division in NAMES:
        copy = Registration.objects.get(tournament=event, name=name).player
        theirs = results.players.get(name=name)
        for view in ("public:card", "public:card_part", "public:ledger"):
            answer = client.get(reverse(view, args=[event.slug, copy.pk]))
            assert answer.status_code == 302
            assert answer["Location"] == reverse(view, args=[results.slug, theirs.pk])
    # A player of the copy with no application (typed in at the club's desk): the results.
    door = players.register_player(event, "Walk In", "A", by="desk")
    answer = client.get(reverse("public:card", args=[event.slug, door.pk]))
    assert answer["Location"] == reverse("public:event", args=[results.slug])


def test_the_results_page_offers_the_clubs_registration_while_it_is_open_before_round_1(
    client, event, monkeypatch
):
    """The hall published before round 1 while the club still takes registrations: the
    club page lists the event once, as its results, and their page offers the club's
    registration form (the copy's own page leads there); once the club closes it, or the
    hall draws round 1, it does not."""
    _links, hall = registered_then_published(client, event, monkeypatch)
    results = Tournament.objects.get(slug=SLUG)
    form = reverse("public:register", args=[event.slug])
    page = client.get(reverse("public:event", args=[results.slug])).content.decode()
    assert f'href="{form}"' in page
    assert client.get(form).status_code == 200
    held = client.get(reverse("public:event", args=[results.slug]))["ETag"]
    services.save_settings(event, open=False, cap_total=4, cap_a=None, cap_b=None, by="test")
    # A phone holding the page with the link is not told it is still current.
    again = client.get(reverse("public:event", args=[results.slug]), HTTP_IF_NONE_MATCH=held)
    assert again.status_code == 200 and f'href="{form}"' not in again.content.decode()
    page = client.get(reverse("public:event", args=[results.slug])).content.decode()
    assert f'href="{form}"' not in page
    services.save_settings(event, open=True, cap_total=8, cap_a=None, cap_b=None, by="test")
    hall_draws_round_1_and_publishes(hall)
    page = client.get(reverse("public:event", args=[results.slug])).content.decode()
    assert f'href="{form}"' not in page and "register-link" not in page

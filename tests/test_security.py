"""Security: deploy checks, CSP on every page, login throttling, session lifetime, and a
table's session confined to its own table and open round."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

ROOT = Path(__file__).resolve().parent.parent
LOGIN = "/accounts/login/"


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    # Only what a deployment sets: nothing the test process itself relaxes (the browser
    # tests' DJANGO_ALLOW_ASYNC_UNSAFE, for one) may leak into the check.
    dropped = {"DEBUG", "SECURE_SSL_REDIRECT", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="snowman.example.com",
        SNOWMAN_VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="snowman.settings",
        **extra,
    )
    return env


@pytest.mark.db_independent  # a process of its own, told no database
def test_deploy_check_is_clean_under_production_settings(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.db_independent  # a process of its own, told no database
def test_production_settings_refuse_to_start_without_a_secret_key(tmp_path):
    env = production_env(tmp_path)
    env["SECRET_KEY"] = ""
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_passwords_are_stored_with_a_deliberately_slow_hash(strong_password_hashing):
    # The tests sign accounts in with a fast hash (tests/conftest.py); the project does not.
    from django.contrib.auth.hashers import PBKDF2PasswordHasher, get_hasher, make_password

    hasher = get_hasher()
    assert isinstance(hasher, PBKDF2PasswordHasher) and hasher.iterations >= 1_000_000
    assert make_password("a-long-director-password").startswith("pbkdf2_sha256$")


# --- Content-Security-Policy on every HTML page --------------------------------------


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.inline: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.hrefs.append(values["href"] or "")
        # A JSON data block (json_script) runs nothing: the policy lets it be.
        if tag == "script" and not values.get("src") and values.get("type") != "application/json":
            self.inline.append("inline <script>")
        if tag == "style":
            self.inline.append("<style> element")
        if "style" in values:
            self.inline.append(f"style attribute on <{tag}>")
        self.inline += [f"{name} on <{tag}>" for name in values if name.startswith("on")]


# Links the crawler must not follow: they change state, or stream big files.
SKIP = re.compile(r"logout|/admin/|\.(pdf|csv)\b|/export|/print|[?&]sort=", re.I)


def crawl(client, roots: list[str], limit: int = 150) -> dict[str, object]:
    """Follow every same-site link from the roots (GET only); return the HTML responses."""
    seen: dict[str, object] = {}
    queue = list(roots)
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen:
            continue
        response = client.get(url)
        seen[url] = response
        if response.status_code in (301, 302) and response.get("Location"):
            target = urljoin(url, response["Location"])
            if not urlsplit(target).netloc and not SKIP.search(target):
                queue.append(target)
            continue
        if "text/html" not in response.get("Content-Type", ""):
            continue
        parser = Links()
        parser.feed(response.content.decode())
        for href in parser.hrefs:
            target = urljoin(url, href).split("#")[0]
            parts = urlsplit(target)
            if parts.netloc or parts.scheme not in ("", "http") or SKIP.search(target):
                continue
            if target and target not in seen:
                queue.append(target)
    return seen


def csp_of(response) -> str:
    return response.get("Content-Security-Policy", "")


@pytest.fixture
def played_event(db):
    from tournaments.core.simulate import simulate

    return simulate(2, seed=11)


def assert_every_html_page_has_csp(pages: dict[str, object]) -> int:
    html = {u: r for u, r in pages.items() if "text/html" in r.get("Content-Type", "")}
    missing = [u for u, r in html.items() if "default-src 'self'" not in csp_of(r)]
    assert not missing, f"HTML without a Content-Security-Policy: {missing}"
    servers = [u for u, r in pages.items() if r.status_code >= 500]
    assert not servers, f"server errors: {servers}"
    inline = {}
    for url, response in html.items():
        parser = Links()
        parser.feed(response.content.decode())
        if parser.inline:
            inline[url] = parser.inline
    assert not inline, f"inline script or style the policy would block: {inline}"
    return len(html)


@pytest.mark.slow  # a walk over every page
def test_every_public_and_director_page_carries_the_policy(client, director, played_event):
    public = crawl(client, ["/", LOGIN, "/no-such-page/"])
    assert public[LOGIN].status_code == 200
    count = assert_every_html_page_has_csp(public)
    client.force_login(director)
    pages = crawl(client, ["/", "/director/", LOGIN])
    count += assert_every_html_page_has_csp(pages)
    assert count >= 20, sorted(pages)


def test_the_tablet_screen_and_its_refusals_carry_the_policy(client, played_event):
    from tournaments.core.models.play import TableLink

    link = TableLink.objects.filter(tournament=played_event, revoked_at__isnull=True).first()
    refusals = crawl(client, ["/t/table/", "/t/no-such-token/"])
    assert refusals["/t/table/"].status_code == 403
    pages = crawl(client, [f"/t/{link.token}/"])
    assert pages["/t/table/"].status_code == 200
    assert assert_every_html_page_has_csp({**refusals, **pages}) >= 3


def test_the_policy_built_once_is_the_header_django_csp_builds_each_time(rf, settings):
    """snowman.middleware.CSPMiddleware keeps the header it built while its setting is
    the same: every kind of response gets the headers django-csp gives it, and a changed
    setting (report-only added, the policy replaced) is followed at once."""
    import csp.middleware
    from csp.decorators import csp_exempt, csp_update
    from django.http import HttpResponse

    from snowman.middleware import CSPMiddleware

    def plain(request):
        return HttpResponse()

    def nonce(request):
        str(request.csp_nonce)
        return HttpResponse()

    views = {
        "plain": plain,
        "nonce": nonce,
        "updated": csp_update({"img-src": ["https://example.com"]})(plain),
        "exempt": csp_exempt()(plain),
    }

    def headers(middleware) -> dict[str, str]:
        request = rf.get("/t/table/state.json")
        response = middleware(request)
        used = getattr(request, "_csp_nonce", None)
        return {
            k: v.replace(used, "nonce") if used else v
            for k, v in response.headers.items()
            if k.startswith("Content-Security-Policy")
        }

    # Kept across the changes of setting, as a server keeps its middleware.
    kept = {kind: CSPMiddleware(v) for kind, v in views.items()}
    changes = [
        {},
        {"CONTENT_SECURITY_POLICY_REPORT_ONLY": {"DIRECTIVES": {"default-src": ["'none'"]}}},
        {"CONTENT_SECURITY_POLICY": {"DIRECTIVES": {"default-src": ["'self'", "data:"]}}},
    ]
    for change in changes:
        for name, value in change.items():
            setattr(settings, name, value)
        for kind, v in views.items():
            for _ in range(2):
                assert headers(kept[kind]) == headers(csp.middleware.CSPMiddleware(v)), (
                    change,
                    kind,
                )
    last = headers(kept["plain"])
    assert last["Content-Security-Policy"] == "default-src 'self' data:"
    assert last["Content-Security-Policy-Report-Only"] == "default-src 'none'"
    assert headers(kept["exempt"]) == {"Content-Security-Policy-Report-Only": "default-src 'none'"}


def test_the_policy_forbids_inline_code_and_framing(client):
    policy = csp_of(client.get(LOGIN))
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in policy.split(";") if part.strip()
    )
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]


# --- Director login: throttled per username and address ------------------------------


def sign_in(client, username: str, password: str, ip: str):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip)


@pytest.fixture
def two_directors(django_user_model):
    for name in ("xavier", "yvonne"):
        django_user_model.objects.create_user(name, password=f"{name}-correct-horse-battery")


def test_five_bad_passwords_lock_that_user_from_that_address_only(client, two_directors):
    from axes.models import AccessAttempt

    answers = [
        sign_in(client, "xavier", "wrong", "10.0.0.1").status_code
        for _ in range(settings.AXES_FAILURE_LIMIT)
    ]
    # The fifth failure is the one that locks.
    assert answers == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    # Even the right password is refused for xavier at 10.0.0.1 now.
    locked = sign_in(client, "xavier", "xavier-correct-horse-battery", "10.0.0.1")
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    # Another director behind the same venue address still signs in,
    assert sign_in(client, "yvonne", "yvonne-correct-horse-battery", "10.0.0.1").status_code == 302
    client.logout()
    # and xavier from another address too.
    assert sign_in(client, "xavier", "xavier-correct-horse-battery", "10.0.0.2").status_code == 302
    client.logout()
    # After the cool-off xavier may try again from the first address.
    AccessAttempt.objects.filter(username="xavier").update(
        attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    )
    assert sign_in(client, "xavier", "xavier-correct-horse-battery", "10.0.0.1").status_code == 302


def test_four_bad_passwords_do_not_lock(client, two_directors):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        sign_in(client, "xavier", "wrong", "10.0.0.1")
    assert sign_in(client, "xavier", "xavier-correct-horse-battery", "10.0.0.1").status_code == 302


# --- Director sessions end after 12 hours -------------------------------------------


def test_director_session_expires_after_twelve_hours(client, director):
    assert settings.SESSION_COOKIE_AGE == 12 * 60 * 60
    response = sign_in(client, "director", "a-long-director-password", "10.0.0.9")
    assert response.status_code == 302
    assert client.session.get_expiry_age() == 12 * 60 * 60
    assert response.cookies[settings.SESSION_COOKIE_NAME]["max-age"] == 12 * 60 * 60
    home = reverse(settings.LOGIN_REDIRECT_URL)
    assert client.get(home).status_code == 200
    # Twelve hours and a second later the same cookie no longer opens the director pages.
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    response = client.get(home)
    assert response.status_code == 302
    assert response["Location"].startswith(LOGIN)


# --- A table's session reaches its own table's open match and nothing else --------------

POSTS = {
    "hands": {
        "client_key": "sec-1",
        "number": 1,
        "outcome": "played",
        "maker": "S",
        "alone": False,
        "maker_tricks": 3,
        "renege_by": None,
        "first_dealer": "N",
    },
    "first-dealer": {"seat": "E"},
    "undo": {"number": 1},
    "answer-call": {"in_progress": True},
    "confirm": {"agree": False, "by": "Player A001", "note": "wrong"},
}


def post(client, action: str, **extra: object):
    return client.post(
        f"/t/table/{action}", {**POSTS[action], **extra}, content_type="application/json"
    )


def tablet_for(link) -> object:
    from django.test import Client

    tablet = Client()
    assert tablet.get(f"/t/{link.token}/").status_code == 302
    return tablet


@pytest.fixture
def two_events(make_tournament):
    from tournaments.core.models.play import TableLink
    from tournaments.core.services import rounds

    events = []
    for name in ("Home", "Away"):
        t = make_tournament(2, name=name)
        rounds.start_round(rounds.draw_first_round(t, by="test", seed=1), by="test")
        links = {link.table: link for link in TableLink.objects.filter(tournament=t)}
        events.append((t, links))
    return events


def match_of(t, table: int, number: int = 1):
    return t.rounds.get(number=number).matches.get(table=table)


def test_a_table_cannot_read_or_write_another_tables_match(two_events):
    from tests.test_faults import snapshot

    (home, links), (away, away_links) = two_events
    tablet = tablet_for(links[1])
    before = snapshot()
    for other in (match_of(home, 2), match_of(away, 1)):  # next table; same number elsewhere
        assert tablet.get(f"/t/table/state.json?match={other.pk}").status_code == 403
        for action in POSTS:
            response = post(tablet, action, match=other.pk)
            assert response.status_code == 403, (action, response.content)
    assert snapshot() == before
    # Its own match it may write.
    assert post(tablet, "hands").status_code == 201


def test_without_a_live_link_every_endpoint_refuses(two_events):
    from django.test import Client

    from tournaments.core.services.rounds import revoke_link

    (home, links), _ = two_events
    nobody = Client()
    tablet = tablet_for(links[1])
    revoke_link(home, 1, by="director")
    for client in (nobody, tablet):
        assert client.get("/t/table/state.json").status_code == 403
        assert client.get("/t/table/").status_code == 403
        for action in POSTS:
            assert post(client, action).status_code == 403, action
    assert not match_of(home, 1).hands.exists()
    # The revoked token cannot open a new session either.
    assert Client().get(f"/t/{links[1].token}/").status_code == 403


def test_a_closed_round_cannot_be_changed_from_a_tablet(two_events):
    from tests.test_faults import play_out, snapshot
    from tournaments.core.services import rounds

    (home, links), _ = two_events
    tablet = tablet_for(links[1])
    closed = match_of(home, 1)
    for match in home.rounds.get(number=1).matches.all():
        play_out(match)
    rounds.finalize_round(home.rounds.get(number=1), by="director")
    rounds.start_round(rounds.seat_next_round(home, by="director"), by="director")
    before = snapshot()
    name = closed.round.seats.filter(table=1).select_related("player").first().player.name
    refusals = {
        "hands": post(tablet, "hands", match=closed.pk, number=11, client_key="late"),
        "undo": post(tablet, "undo", match=closed.pk, number=10),
        "answer-call": post(tablet, "answer-call", match=closed.pk),
        "first-dealer": post(tablet, "first-dealer", match=closed.pk),
        "confirm (dispute)": post(tablet, "confirm", match=closed.pk, by=name),
    }
    statuses = {action: r.status_code for action, r in refusals.items()}
    assert all(status == 422 for status in statuses.values()), str(statuses)
    assert snapshot() == before


def test_tablet_posts_need_the_csrf_token(two_events):
    from django.test import Client

    (home, links), _ = two_events
    tablet = Client(enforce_csrf_checks=True)
    tablet.get(f"/t/{links[1].token}/")
    tablet.get("/t/table/state.json")
    assert post(tablet, "hands").status_code == 403
    token = tablet.cookies["csrftoken"].value
    response = tablet.post(
        "/t/table/hands", POSTS["hands"], content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 201


def test_a_table_session_opens_no_director_page(two_events):
    (home, links), _ = two_events
    tablet = tablet_for(links[1])
    for url in (
        "/director/",
        f"/director/{home.slug}/",
        f"/director/{home.slug}/standings/",
        f"/director/sheets/{home.slug}/table-cards.pdf",
    ):
        response = tablet.get(url)
        assert response.status_code == 302 and response["Location"].startswith(LOGIN), url


def test_an_id_is_ascii_digits_within_the_columns_range_and_nothing_else():
    from tournaments.common.ids import ID_MAX, parse_id, parse_ids

    assert parse_id("12") == 12 and parse_id(12) == 12
    assert parse_id(str(ID_MAX)) == ID_MAX
    for bad in (
        "١٢",
        "²",
        " 12",
        "12 ",
        "+12",
        "-1",
        "1_2",
        "0",
        "",
        None,
        True,
        1.0,
        str(ID_MAX + 1),
        "9" * 20,
        0,
        -5,
    ):
        assert parse_id(bad) is None, bad
    assert parse_id("0", low=0) == 0 and parse_id("101", low=0, high=100) is None
    assert parse_ids(["1", "2"]) == [1, 2] and parse_ids(["1", "x"]) is None

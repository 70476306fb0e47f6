"""Sign-in throttling (snowman/throttle.py): a username locked from one address, an
address locked after spraying, no renewal while locked, forwarded addresses believed only
from a trusted proxy, and a lockout page that says how long and how to clear it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

LOGIN = "/accounts/login/"
PASSWORD = "correct-horse-battery-{}"


@pytest.fixture
def accounts(django_user_model):
    names = ["xavier", "yvonne", "zoe"]
    for name in names:
        django_user_model.objects.create_user(name, password=PASSWORD.format(name))
    return names


def sign_in(client, username: str, password: str, ip: str, **headers: str):
    response = client.post(
        LOGIN, {"username": username, "password": password}, REMOTE_ADDR=ip, **headers
    )
    client.logout()
    return response


def fail(client, username: str, ip: str, times: int, **headers: str) -> list[int]:
    return [sign_in(client, username, "wrong", ip, **headers).status_code for _ in range(times)]


def test_spraying_many_usernames_from_one_address_locks_that_address(client, accounts):
    limit = settings.AXES_ADDRESS_FAILURE_LIMIT
    # One or two guesses per made-up username: never five for any one of them.
    answers = [
        sign_in(client, f"guess{i // 2}", "Winter2026!", "10.1.1.1").status_code
        for i in range(limit)
    ]
    assert answers[:-1] == [200] * (limit - 1) and answers[-1] == 429
    # Now even a real director with the right password waits at that address,
    assert sign_in(client, "xavier", PASSWORD.format("xavier"), "10.1.1.1").status_code == 429
    # and signs in from any other.
    assert sign_in(client, "xavier", PASSWORD.format("xavier"), "10.1.1.2").status_code == 302


def test_failures_while_locked_do_not_extend_the_lock(client, accounts):
    assert fail(client, "xavier", "10.2.2.2", settings.AXES_FAILURE_LIMIT)[-1] == 429
    before = list(AccessAttempt.objects.values_list("failures_since_start", "attempt_time"))
    # Someone keeps hammering during the lock: nothing is counted or re-timed.
    assert set(fail(client, "xavier", "10.2.2.2", 10)) == {429}
    assert list(AccessAttempt.objects.values_list("failures_since_start", "attempt_time")) == (
        before
    )
    # So the lock ends when its time is up after the locking failure.
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    )
    assert sign_in(client, "xavier", PASSWORD.format("xavier"), "10.2.2.2").status_code == 302


def test_a_successful_sign_in_clears_only_that_user_at_that_address(client, accounts):
    fail(client, "xavier", "10.3.3.3", settings.AXES_FAILURE_LIMIT)
    assert sign_in(client, "yvonne", PASSWORD.format("yvonne"), "10.3.3.3").status_code == 302
    # Yvonne's success does not unlock xavier at the shared address.
    assert sign_in(client, "xavier", PASSWORD.format("xavier"), "10.3.3.3").status_code == 429


def test_forwarded_addresses_are_ignored_without_a_trusted_proxy(client, accounts):
    # A client naming a new X-Forwarded-For each time still locks itself (and only
    # itself): the header is not believed.
    answers = [
        sign_in(
            client, "xavier", "wrong", "10.4.4.4", HTTP_X_FORWARDED_FOR=f"172.16.0.{i}"
        ).status_code
        for i in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert answers[-1] == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"10.4.4.4"}


def test_behind_a_trusted_proxy_each_client_has_its_own_lock(client, accounts, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.9"]
    proxy = "127.0.0.9"
    # Someone at 192.0.2.50 behind the proxy locks xavier for themselves only;
    assert fail(client, "xavier", proxy, 5, HTTP_X_FORWARDED_FOR="192.0.2.50")[-1] == 429
    # the director at another address, through the same proxy, still signs in.
    ok = sign_in(
        client, "xavier", PASSWORD.format("xavier"), proxy, HTTP_X_FORWARDED_FOR="192.0.2.60"
    )
    assert ok.status_code == 302
    # A client cannot dodge by writing its own header: the proxy appends the real one.
    spoofed = sign_in(
        client,
        "xavier",
        PASSWORD.format("xavier"),
        proxy,
        HTTP_X_FORWARDED_FOR="192.0.2.60, 192.0.2.50",
    )
    assert spoofed.status_code == 429


def test_the_lockout_page_says_how_long_and_how_to_clear_it(client, accounts):
    response = fail(client, "xavier", "10.5.5.5", settings.AXES_FAILURE_LIMIT)
    page = sign_in(client, "xavier", "wrong", "10.5.5.5")
    assert page.status_code == 429
    html = page.content.decode()
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    assert f"Sign-in locked for {minutes} minutes" in html
    assert "manage.py axes_reset_ip_username 10.5.5.5 xavier" in html
    assert 'href="/static/css/snowman.css"' in html or "snowman.css" in html
    assert int(page["Retry-After"]) <= minutes * 60
    assert response[-1] == 429
    # The command on the page does clear it.
    call_command("axes_reset_ip_username", "10.5.5.5", "xavier", verbosity=0)
    assert sign_in(client, "xavier", PASSWORD.format("xavier"), "10.5.5.5").status_code == 302


def test_a_username_typed_into_the_lockout_command_is_quoted_for_the_shell(client, accounts):
    fail(client, "x; rm -rf ~", "10.6.6.6", settings.AXES_FAILURE_LIMIT)
    html = sign_in(client, "x; rm -rf ~", "wrong", "10.6.6.6").content.decode()
    assert "axes_reset_ip_username 10.6.6.6 &#x27;x; rm -rf ~&#x27;" in html

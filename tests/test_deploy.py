"""Past one machine (docs/deploy.md): two app-server instances behind a proxy, sharing
one PostgreSQL database. Nothing on the tablets' path may live in one process: the burst
through the proxy stores every hand exactly once with no server error, both instances
answer, and the sign-in throttle sees the client's address, not the proxy's.

Loopback only: HAProxy (Debian's package; .ci/run installs it) on 127.0.0.1 in front of
two granian instances on 127.0.0.1. SQLite is the one-laptop deployment, so this runs on
PostgreSQL only.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.db import connection

from bench import scenario
from bench.proxy import Proxy
from bench.server import Server, database_url, free_port, production_env
from tournaments.core.models.play import HandEntry

TABLES = 50


@pytest.mark.slow  # two app servers and haproxy, each a process of its own
def test_two_instances_behind_a_proxy_store_every_hand_once(
    transactional_db, tmp_path, static_root
):
    if connection.vendor != "postgresql":
        pytest.skip("several app servers share PostgreSQL; SQLite is the one-laptop set-up")
    assert Path(shutil.which("haproxy") or "/usr/sbin/haproxy").exists(), (
        "haproxy is missing: apt-get install haproxy (.ci/run does)"
    )
    env = production_env(database_url(connection.settings_dict), tmp_path, static_root)
    # Both instances trust the proxy's X-Forwarded-For and log each request.
    env.update(HTTPS="0", TRUSTED_PROXIES="127.0.0.1", ACCESS_LOG="1", ALLOWED_HOSTS="*")
    one, two, front = free_port(), free_port(), free_port()
    servers = [
        Server(env, port, workers=1, threads=4, server="granian", log=tmp_path / f"{port}.log")
        for port in (one, two)
    ]
    t = scenario.prepare_event(TABLES)
    with servers[0], servers[1], Proxy(tmp_path, front, one, two):
        report = scenario.run(t, front, floor=False)
        logs = [(tmp_path / f"{port}.log").read_text() for port in (one, two)]
    assert not report.problems, "\n".join(report.lines())
    for phase in report.phases:
        assert phase.server_errors == 0 and phase.no_answer == 0, phase.line()
    first_round = HandEntry.objects.filter(match__round__number=1).count()
    assert report.rows["after replay"] == report.rows["after burst"] == first_round
    double = report.phase("double send")
    second_round = report.rows["after double send"] - first_round
    assert double.statuses == {200: second_round, 201: second_round}
    # Both instances took a share of the tablets' hands,
    shares = [log.count("/t/table/hands") for log in logs]
    assert all(share > 0 for share in shares), shares
    # and they logged the tablets' address (from the trusted proxy), never a token.
    assert all("127.0.0.1 POST /t/table/hands" in log for log in logs)
    tokens = scenario.tokens(t).values()
    assert not any(token in log for token in tokens for log in logs)

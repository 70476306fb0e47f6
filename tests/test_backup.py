"""Nothing lost when the laptop dies: backups, and carrying on from one.

The whole story against the real server: a round in progress, a backup, more hands, the
server killed, the last backup restored on a fresh machine (a new var directory; the old
database file gone), the server started again, and every tablet resending its match:
every hand is stored exactly once. Runs on SQLite (the backup API) and on PostgreSQL
(pg_dump and pg_restore) alike.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection, connections
from django.utils import timezone

from bench import scenario
from bench.load import Tablet, at_once, open_all, plan, send_all
from bench.server import ROOT, Server, database_url, free_port, production_env
from tournaments.core import backup
from tournaments.core.models.play import HandEntry
from tournaments.core.services import ServiceError


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.mark.slow  # an app server in a process of its own, killed and restarted
def test_a_round_survives_the_laptop_dying_and_every_hand_is_stored_once(
    transactional_db, tmp_path, static_root
):
    backups = tmp_path / "carried" / "backups"
    old_var, new_var = tmp_path / "laptop", tmp_path / "spare-laptop"
    env = production_env(database_url(connection.settings_dict), old_var, static_root)
    # As bin/serve runs: the key in a file of the var directory, not in the environment.
    del env["SECRET_KEY"]
    env.update(SECRET_KEY_FILE=str(old_var / "secret_key"), BACKUP_DIR=str(backups), HTTPS="0")
    t = scenario.prepare_event(6)
    rnd = t.rounds.get(number=1)
    posts = plan(scenario.matches(rnd), t.rules, seed=5, tag=f"restore-{t.pk}")
    links = scenario.tokens(t)
    connections.close_all()

    port = free_port()
    server = Server(env, port, workers=2, threads=2, server="granian", log=tmp_path / "1.log")
    with server:
        tablets = {n: Tablet(port, links[n]) for n in links}
        open_all(list(tablets.values()))
        third = {n: len(p) // 3 for n, p in posts.items()}
        first = at_once(
            "before the backup", [send_all(tablets[n], posts[n][: third[n]]) for n in links]
        )
        assert set(first.statuses) == {201}
        manage(env, "backup")  # what the timer in bin/serve does every few minutes
        later = at_once(
            "after the backup",
            [send_all(tablets[n], posts[n][third[n] : 2 * third[n]]) for n in links],
        )
        assert set(later.statuses) == {201}
        server.kill()  # the laptop dies: no shutdown, nothing flushed by hand
    acknowledged = sum(2 * third[n] for n in links)
    assert HandEntry.objects.filter(match__round=rnd).count() == acknowledged

    # The spare laptop: a fresh var directory, the dead laptop's database gone; only the
    # backups folder was carried over (on a stick, or a synced folder).
    connections.close_all()
    fresh = dict(env, SNOWMAN_VAR_DIR=str(new_var), SECRET_KEY_FILE=str(new_var / "secret_key"))
    if connection.vendor == "sqlite":
        for suffix in ("", "-wal", "-shm"):
            Path(f"{connection.settings_dict['NAME']}{suffix}").unlink(missing_ok=True)
        restored = manage(fresh, "restore", "--from", str(backups))
    else:  # the database server survived; the event goes back to the backup
        refused = subprocess.run(
            [sys.executable, "manage.py", "restore", "--from", str(backups)],
            cwd=ROOT,
            env=fresh,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert refused.returncode != 0 and "--force" in refused.stderr
        restored = manage(fresh, "restore", "--from", str(backups), "--force")
    assert "Restored snowman-" in restored.stdout
    # The key came along, so the tablets' table sessions still open their tables.
    assert (new_var / "secret_key").read_text() == (old_var / "secret_key").read_text()
    assert stat.S_IMODE((new_var / "secret_key").stat().st_mode) == 0o600
    assert HandEntry.objects.filter(match__round=rnd).count() == sum(third.values())

    port = free_port()
    server = Server(fresh, port, workers=2, threads=2, server="granian", log=tmp_path / "2.log")
    with server:
        for tablet in tablets.values():
            tablet.port, tablet.conn = port, None
        # Each tablet sends its match again, in order: what the server already has is
        # answered as a retry (200), what the restore lost is stored anew (201).
        resend = at_once("resend", [send_all(tablets[n], posts[n]) for n in links])
    for tablet in tablets.values():
        tablet.close()
    total = sum(len(p) for p in posts.values())
    assert resend.statuses == {200: sum(third.values()), 201: total - sum(third.values())}
    assert resend.server_errors == 0 and resend.no_answer == 0
    assert scenario.verify(t, rnd, posts) == []
    assert HandEntry.objects.filter(match__round=rnd).count() == total


def test_backups_are_kept_to_the_last_n_and_private(db, tmp_path, settings):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_KEEP = 3
    start = timezone.now()
    made = [backup.take_backup("scheduled", now=start + timedelta(minutes=5 * i)) for i in range(5)]
    kept = backup.backups()
    assert [b.path for b in kept] == [b.path for b in made[-3:]]
    assert all(stat.S_IMODE(b.path.stat().st_mode) == 0o600 for b in kept)
    assert stat.S_IMODE(settings.BACKUP_DIR.stat().st_mode) == 0o700
    assert not list(settings.BACKUP_DIR.glob("*.partial"))


def test_the_backup_command_into_a_folder_it_cannot_make_says_so_in_one_line(
    db, tmp_path, settings
):
    # A BACKUP_DIR that is a file (or on a stick not mounted) printed a traceback.
    from django.core.management import call_command
    from django.core.management.base import CommandError

    settings.BACKUP_DIR = tmp_path / "not-a-folder"
    settings.BACKUP_DIR.write_text("")
    with pytest.raises(CommandError) as err:
        call_command("backup")
    assert str(err.value) == f"No backup was made in {settings.BACKUP_DIR}: File exists"


def test_a_finalize_takes_a_backup(director_client, make_tournament, settings, tmp_path):
    from tests.test_faults import play_out
    from tournaments.core.services import rounds

    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_ON_FINALIZE = True
    t = make_tournament(2)
    rnd = rounds.draw_first_round(t, by="test", seed=1)
    rounds.start_round(rnd, by="test")
    for match in rnd.matches.all():
        play_out(match)
    response = director_client.post(f"/director/{t.slug}/rounds/1/finalize/")
    assert response.status_code == 302
    assert [b.reason for b in backup.backups()] == ["finalize-round-1"]


def test_only_the_app_server_that_keeps_the_backups_takes_one_at_a_finalize(tmp_path):
    """Behind a proxy every server but one runs with BACKUP_MINUTES=0: a finalize answered
    by one of those wrote a copy of the whole site into its own var/backups."""
    env = production_env("sqlite:///" + str(tmp_path / "db.sqlite3"), tmp_path, tmp_path)
    env.pop("BACKUP_ON_FINALIZE", None)
    ask = ("shell", "-c", "from django.conf import settings; print(settings.BACKUP_ON_FINALIZE)")
    assert manage({**env, "BACKUP_MINUTES": "0"}, *ask).stdout.split()[-1] == "False"
    assert manage({**env, "BACKUP_MINUTES": "5"}, *ask).stdout.split()[-1] == "True"
    chosen = {"BACKUP_MINUTES": "0", "BACKUP_ON_FINALIZE": "1"}
    assert manage({**env, **chosen}, *ask).stdout.split()[-1] == "True"


def test_restore_refuses_what_is_not_a_backup_and_a_database_in_use(
    transactional_db, tmp_path, settings
):
    settings.BACKUP_DIR = tmp_path / "backups"
    junk = tmp_path / "snowman-20260101-000000-000000-manual.sqlite3"
    junk.write_bytes(b"not a database")
    kind = "sqlite3" if connection.vendor == "sqlite" else "pgdump"
    with pytest.raises(ServiceError):
        backup.restore(tmp_path / "notes.txt")
    if kind == "sqlite3":
        with pytest.raises(ServiceError, match="damaged or not|cannot be read"):
            backup.restore(junk)
    from tournaments.core.services.tournaments import create_tournament

    create_tournament("In use", by="test", lot_seed=1)
    made = backup.take_backup("manual")
    with pytest.raises(ServiceError, match="--force"):
        backup.restore(made.path)
    assert os.path.exists(made.path)


def fake_backup(folder: Path, *statements: str) -> Path:
    import sqlite3

    path = folder / "snowman-20260101-000000-000000-manual.sqlite3"
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()
    return path


def test_restore_force_refuses_an_sqlite_file_that_only_has_a_handentry_table(
    transactional_db, tmp_path, settings
):
    """Before: any SQLite file with a table named tournaments_handentry replaced the
    event's database under --force."""
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite restore checks an SQLite file")
    settings.BACKUP_DIR = tmp_path / "backups"
    impostor = fake_backup(tmp_path, "CREATE TABLE tournaments_handentry (x)")
    no_tables = "not a Snowman database: it has no auth_user, django_migrations"
    with pytest.raises(ServiceError, match=no_tables):
        backup.restore(impostor, force=True)
    impostor.unlink()
    tables = sorted(backup.EXPECTED_TABLES)
    # Every expected table, but a migration history of another app: still refused.
    lookalike = fake_backup(
        tmp_path,
        *(f"CREATE TABLE {name} (app, name)" for name in tables),
        "INSERT INTO django_migrations VALUES ('other', '0001_initial')",
    )
    with pytest.raises(ServiceError, match="none of Snowman's migrations"):
        backup.restore(lookalike, force=True)
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT count(*) FROM django_migrations WHERE app = 'tournaments'")
        assert cursor.fetchone()[0] > 0  # the event's database is still in place
    # And a backup of a newer Snowman (a migration unknown here).
    lookalike.unlink()
    newer = fake_backup(
        tmp_path,
        *(f"CREATE TABLE {name} (app, name)" for name in tables),
        "INSERT INTO django_migrations VALUES ('tournaments', '0001_initial')",
        "INSERT INTO django_migrations VALUES ('tournaments', '0099_from_the_future')",
    )
    with pytest.raises(ServiceError, match="0099_from_the_future are unknown here"):
        backup.restore(newer, force=True)


def test_a_var_dir_made_without_bin_serve_keeps_the_database_and_its_wal_private(tmp_path):
    """Before: a bare manage.py made the var dir 0755 and the database, -wal and -shm 0644
    (they hold every session); only bin/serve chmodded the folder."""
    var = tmp_path / "fresh" / "var"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "SECRET_KEY", "SECRET_KEY_FILE", "SQLITE_TEST_NAME")
    }
    env.update(SNOWMAN_VAR_DIR=str(var), DEBUG="1")
    probe = (
        "import os, stat\n"
        "from django.db import connection\n"
        "with connection.cursor() as c:\n"
        "    c.execute('CREATE TABLE probe (x)')\n"
        "    c.execute('INSERT INTO probe VALUES (1)')\n"
        "    name = connection.settings_dict['NAME']\n"
        "    for path in (name, name + '-wal', name + '-shm', os.path.dirname(name)):\n"
        "        print(oct(stat.S_IMODE(os.stat(path).st_mode)))\n"
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", probe],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.umask(0o022),
    )
    assert out.returncode == 0, out.stderr
    modes = [word for word in out.stdout.split() if word.startswith("0o")]
    assert modes == ["0o600", "0o600", "0o600", "0o700"]
    assert stat.S_IMODE((var / "secret_key").stat().st_mode) == 0o600

"""Run the app under gunicorn with production settings on 127.0.0.1, for the burst
benchmark and the burst and fault tests."""

from __future__ import annotations

import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
PING = "/bench/ping"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for a Django connection's settings (e.g. pytest-django's test DB)."""
    engine = settings_dict["ENGINE"]
    if engine.endswith("sqlite3") or engine == "tournaments.core.db.sqlite":
        return f"sqlite:///{Path(settings_dict['NAME']).resolve()}"
    if "postgresql" in engine:
        user = quote(settings_dict.get("USER") or "")
        password = settings_dict.get("PASSWORD") or ""
        auth = f"{user}:{quote(password)}@" if password else (f"{user}@" if user else "")
        host = settings_dict.get("HOST") or "127.0.0.1"
        port = settings_dict.get("PORT") or 5432
        return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"
    raise ValueError(f"no DATABASE_URL for {engine}")


def production_env(database: str, var_dir: Path, static_root: Path, **extra: str) -> dict[str, str]:
    """The environment of a production deployment, minus TLS (the bench speaks plain
    HTTP on the loopback, so the SSL redirect is off; everything else is as deployed)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DEBUG",
            "SECURE_SSL_REDIRECT",
            "DATABASE_URL",
            "CONN_MAX_AGE",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=database,
        SNOWMAN_VAR_DIR=str(var_dir),
        STATIC_ROOT=str(static_root),
        DJANGO_SETTINGS_MODULE="bench.settings",
        LOG_LEVEL="ERROR",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra)
    return env


def setup_django(database: str, var_dir: Path, **extra: str) -> tuple[dict[str, str], Path]:
    """Production settings for this process and the servers it starts, against
    ``database`` (migrated here), with static files collected into a throwaway directory
    that the caller removes. Returns the environment and that directory."""
    static = Path(tempfile.mkdtemp(prefix="hardening-static-"))
    env = production_env(database, var_dir, static, **extra)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    collectstatic(env)
    return env, static


def collectstatic(env: dict[str, str]) -> None:
    manifest = Path(env["STATIC_ROOT"]) / "staticfiles.json"
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    assert manifest.exists(), "collectstatic wrote no manifest"


SERVERS = ("granian", "gunicorn", "waitress")


class Server:
    """A WSGI server (granian, as ``bin/serve`` runs it, or gunicorn or waitress to
    compare) in its own process group, so a crash can be simulated with SIGKILL.
    ``workers`` are processes, ``threads`` the threads that run the app in each."""

    def __init__(
        self,
        env: dict[str, str],
        port: int,
        *,
        workers: int = 4,
        worker_class: str = "sync",
        threads: int = 1,
        log: Path | None = None,
        server: str = "gunicorn",
    ) -> None:
        if server not in SERVERS:
            raise ValueError(f"server must be one of {SERVERS}")
        self.env, self.port, self.server = env, port, server
        self.workers, self.worker_class, self.threads = workers, worker_class, threads
        self.log = log
        self.process: subprocess.Popen | None = None

    @property
    def command(self) -> list[str]:
        if self.server == "granian":
            return [
                str(VENV_BIN / "granian"),
                "--interface",
                "wsgi",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--workers",
                str(self.workers),
                "--blocking-threads",
                str(self.threads),
                "--backlog",
                "4096",
                "--log-level",
                "warning",
                "snowman.wsgi:application",
            ]
        if self.server == "waitress":
            return [
                str(VENV_BIN / "waitress-serve"),
                f"--listen=127.0.0.1:{self.port}",
                f"--threads={self.threads}",
                "--backlog=4096",
                "--connection-limit=4000",
                "snowman.wsgi:application",
            ]
        return [
            str(VENV_BIN / "gunicorn"),
            "snowman.wsgi:application",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(self.workers),
            "--worker-class",
            self.worker_class,
            "--threads",
            str(self.threads),
            "--backlog",
            "4096",
            "--timeout",
            "120",
            "--graceful-timeout",
            "5",
            "--log-level",
            "warning",
        ]

    def start(self, timeout: float = 60) -> Server:
        if self.log:
            self.log.parent.mkdir(parents=True, exist_ok=True)
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code = self.process.returncode
                raise RuntimeError(f"{self.server} exited with {code}; see {self.log}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", PING)
                if conn.getresponse().status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"{self.server} did not answer in time")

    def cpu_seconds(self) -> tuple[float, float]:
        """CPU time used so far by this server's processes and by PostgreSQL's: what a
        phase costs the machine, steadier than wall time on a shared one."""
        assert self.process is not None
        group = os.getpgid(self.process.pid)
        app = database = 0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                comm, _, rest = stat.read_text().partition(" (")[2].rpartition(")")
            except OSError:
                continue  # the process ended meanwhile
            fields = rest.split()
            # utime and stime, and those of the children it reaped: PostgreSQL's
            # backends end with their connections (the postmaster reaps them).
            ticks = sum(int(f) for f in fields[11:15])
            if int(fields[2]) == group:
                app += ticks
            elif comm == "postgres":
                database += ticks
        tick = os.sysconf("SC_CLK_TCK")
        return app / tick, database / tick

    def kill(self) -> None:
        """A crash: SIGKILL to the master and every worker, no graceful shutdown."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def for_test_database(
    settings_dict: dict, var_dir: Path, static_root: Path, workers: int = 3
) -> Server:
    """A server on a free port against the database pytest-django made for the tests."""
    env = production_env(database_url(settings_dict), var_dir, static_root)
    return Server(env, free_port(), workers=workers, log=var_dir / "gunicorn.log")


def collected_static(directory: Path) -> Path:
    collectstatic(production_env("sqlite:///:memory:", directory, directory / "static"))
    return directory / "static"

"""``shieldwall serve``: the web app (FastAPI + uvicorn), games kept in SQLite."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer


def default_db() -> Path:
    """``$SHIELDWALL_DB``, else ``$XDG_DATA_HOME/shieldwall/games.sqlite3`` (~/.local/share/...)."""
    env = os.environ.get("SHIELDWALL_DB")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "shieldwall" / "games.sqlite3"


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: Annotated[
            str, typer.Option(help="Address to listen on (127.0.0.1: this machine only).")
        ] = "127.0.0.1",
        port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on (1-65535).")] = 8000,
        db: Annotated[
            Path | None, typer.Option(help="SQLite file for the games (default: ~/.local/share/shieldwall/).")
        ] = None,
        rate_limit: Annotated[
            bool,
            typer.Option(
                "--rate-limit/--no-rate-limit",
                help="Hold each client address to the two limits below (429 past them).",
            ),
        ] = True,
        requests_per_second: Annotated[
            float,
            typer.Option(min=0.1, max=100000, help="Requests a second per client (6 s burst)."),
        ] = 20.0,
        games_per_hour: Annotated[
            float,
            typer.Option(min=1, max=1000000, help="New games an hour per client (burst up to 20)."),
        ] = 60.0,
        workers: Annotated[
            int,
            typer.Option(
                min=1,
                max=64,
                help="Server processes sharing the database (one per core); each holds 1/N of the limits.",
            ),
        ] = 1,
        max_db_mb: Annotated[
            int,
            typer.Option(min=1, max=10_000_000, help="No new game once the database is this big (MB); 507."),
        ] = 2000,
    ) -> None:
        """Play in the browser against a bot or a friend; prints the URL to open."""
        try:
            import uvicorn

            from shieldwall.web.app import CONFIG_ENV, create_app, serve_config
            from shieldwall.web.ratelimit import RateLimits
        except ModuleNotFoundError as exc:
            from shieldwall.cli import fail

            fail(f"the web app needs the 'web' extra ({exc.name} is missing): pip install 'shieldwall[web]'")
            return
        path = db or default_db()
        # each worker holds its own buckets, and a client's requests spread over the workers: each
        # holds 1/N of the limits, so that the client's total stays within them
        per_second, per_hour = requests_per_second / workers, games_per_hour / workers
        limits = (
            RateLimits(
                per_second=per_second,
                burst=max(1, round(per_second * 6)),
                games_per_hour=per_hour,
                games_burst=max(1, min(20, round(per_hour))),
            )
            if rate_limit
            else None
        )
        max_bytes = max_db_mb * 1_000_000
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        url = f"http://{shown}:{port}/"
        # on SIGTERM or Ctrl+C: stop taking requests, give those in flight 1 s, then close (a client
        # that never finishes its body would otherwise hold the server up for ever)
        if workers == 1:
            application = create_app(path, limits, max_bytes)
            print(f"shieldwall is serving at {url}  (games in {path}; Ctrl+C stops)", flush=True)
            uvicorn.run(application, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1)
            return
        create_app(path, limits, max_bytes).state.store.close()  # a bad file fails here, once
        os.environ[CONFIG_ENV] = serve_config(path, limits, max_bytes)
        print(
            f"shieldwall is serving at {url}  ({workers} workers; games in {path}; Ctrl+C stops)", flush=True
        )
        uvicorn.run(
            "shieldwall.web.app:app_from_environment",
            factory=True,
            workers=workers,
            host=host,
            port=port,
            log_level="warning",
            timeout_graceful_shutdown=1,
        )

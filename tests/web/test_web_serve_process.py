"""A real ``shieldwall serve`` process: it stops within 2 s of SIGTERM even under load, and an
invalid port is refused before anything is created."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.browser_fixtures import free_port, serve_cli, wait_up

ROOT = Path(__file__).resolve().parents[2]


def _serve(tmp_path: Path, port: int | str, *extra: str) -> subprocess.Popen[bytes]:
    return serve_cli(tmp_path / "d" / "g.db", port, *extra, path=[ROOT / "src"])


def _post(url: str, body: dict[str, object]) -> None:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            r.read()
    except (OSError, urllib.error.URLError):
        pass


def test_serve_stops_within_two_seconds_of_sigterm_under_load(tmp_path: Path) -> None:
    port = free_port()
    proc = _serve(tmp_path, port, "--no-rate-limit")  # the load comes from one address
    url = f"http://127.0.0.1:{port}"
    stop = threading.Event()
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/api/health", timeout=1):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)

        def load() -> None:  # bot-against-bot-ish work: new games with a bot reply, as fast as it goes
            while not stop.is_set():
                _post(url + "/api/games", {"ruleset": "into-the-dark", "opponent": "random", "side": "red"})

        def slow() -> None:  # a client that never finishes its body: the request stays in flight
            with socket.create_connection(("127.0.0.1", port)) as c:
                c.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
                c.sendall(b"Content-Length: 1000\r\n\r\n{")
                while not stop.is_set():
                    c.sendall(b" ")
                    time.sleep(0.2)

        workers = [threading.Thread(target=load, daemon=True) for _ in range(6)]
        workers += [threading.Thread(target=slow, daemon=True) for _ in range(2)]
        for w in workers:
            w.start()
        time.sleep(2.0)  # requests in flight
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        took = time.monotonic() - t0
        assert took < 2.0, f"took {took:.2f} s to stop"
    finally:
        stop.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


def test_serve_holds_each_address_to_its_rate_limit_by_default(tmp_path: Path) -> None:
    port = free_port()
    proc = _serve(tmp_path, port, "--games-per-hour", "1")
    url = f"http://127.0.0.1:{port}"
    try:
        wait_up(proc, url)
        codes = []
        for _ in range(2):
            req = urllib.request.Request(
                url + "/api/games",
                data=json.dumps({"opponent": "scripted", "seed": 1}).encode(),
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    codes.append(r.status)
            except urllib.error.HTTPError as e:
                codes.append(e.code)
                assert e.headers["Retry-After"] == "3600"
                assert "too many new games" in e.read().decode()
        assert codes == [201, 429]
    finally:
        proc.terminate()
        proc.wait(10)


def test_an_invalid_port_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    proc = _serve(tmp_path, 80000)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert b"Traceback" not in err and b"65535" in err
    assert not (tmp_path / "d").exists()

"""Games kept in SQLite: one row per game, one row per accepted order, hashed secrets.

A game row holds everything needed to rebuild the battle: the scenario data, the parameter
overrides, the seed and who plays each side. Every accepted order is appended to ``orders`` in its
own transaction before the server answers, so a crash or a restart loses no accepted order; the
state is rebuilt by replaying the orders from the seed (the engine is deterministic).

Side tokens and invitations are stored as SHA-256 digests, never in clear: reading the database
does not let anyone give orders. A token is checked against the digests of its game with
``hmac.compare_digest`` (constant time, every digest compared), never looked up by its own value.

The database runs in WAL mode with ``synchronous=FULL``: a committed order survives a crash of
the process and of the machine.

Several server processes may share one file (``shieldwall serve --workers N``): each game row has a
``revision``, raised by every change of its orders (an append, an undo). A process keeps a game in
memory with the revision it was built at; it checks the revision before using it (rebuilding the
game when another process changed it) and writes only on top of the revision it holds (else
:class:`StoreConflict`, and the request is refused with 409: nothing is written on a stale game).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id            TEXT PRIMARY KEY,
    created       REAL NOT NULL,
    ruleset       TEXT NOT NULL,
    scenario_name TEXT NOT NULL,
    scenario      TEXT NOT NULL,
    overrides     TEXT NOT NULL,
    seed          INTEGER NOT NULL,
    seed_public   INTEGER NOT NULL,
    mode          TEXT NOT NULL,
    players       TEXT NOT NULL,
    seed_text     TEXT
);
CREATE TABLE IF NOT EXISTS orders (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    side     TEXT NOT NULL,
    by       TEXT NOT NULL,
    body     TEXT NOT NULL,
    created  REAL NOT NULL,
    client_id TEXT,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS tokens (
    digest   TEXT PRIMARY KEY,
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    sides    TEXT NOT NULL,
    created  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS invites (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    side     TEXT NOT NULL,
    digest   TEXT,
    claimed  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, side)
);
"""

#: columns added since the first schema: (table, column, declaration); a file made by an older
#: server gets them on opening (NULL in the rows it already holds)
ADDED_COLUMNS = (
    ("games", "seed_text", "TEXT"),
    ("orders", "client_id", "TEXT"),
    ("games", "revision", "INTEGER NOT NULL DEFAULT 0"),
)

INDEXES = """
CREATE UNIQUE INDEX IF NOT EXISTS orders_client_id ON orders(game_id, client_id)
    WHERE client_id IS NOT NULL;
"""


def digest(secret: str) -> str:
    """The stored form of a token or invitation."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: str
    created: float
    ruleset: str
    scenario_name: str
    scenario: dict[str, Any]
    overrides: dict[str, Any]
    seed: int  # any size: web games get 128-bit seeds (kept as text: SQLite integers are 64-bit)
    seed_public: bool
    mode: str  # "bot" | "hotseat" | "remote"
    players: dict[str, str]  # side -> "human" | "bot:<name>"


@dataclass(frozen=True, slots=True)
class OrderRow:
    seq: int
    side: str
    by: str  # "human" | "bot"
    order: dict[str, Any]
    client_id: str | None = None  # the id the client gave the order (a retry is answered, not replayed)


@dataclass(eq=False)
class _Append:
    """Orders waiting for the next group commit, and how it went for them."""

    game_id: str
    rows: list[OrderRow]
    revision: int | None = None  # the game's revision the rows were made on (None: do not check)
    finished: bool = False
    error: Exception | None = None
    result: int = 0  # the game's revision after the append


def _match(rows: Sequence[tuple[str, str]], secret: str) -> list[str] | None:
    """The comma-separated value of the row whose digest is ``secret``'s, compared in constant time
    with every row's (no early return: the time does not tell which row, or how much, matched)."""
    want = digest(secret).encode("ascii")
    found: list[str] | None = None
    for dig, value in rows:
        if hmac.compare_digest(str(dig).encode("ascii"), want):
            found = [v for v in str(value).split(",") if v]
    return found


class StoreConflict(Exception):
    """Another request changed the game's orders first."""


class Store:
    """The SQLite file behind the web app. Thread-safe: one connection for writes, guarded by a
    lock; reads go through a connection of the reading thread's own (WAL lets readers run while a
    writer commits, so a request never waits behind another game's fsync to read its token)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._db.executescript(SCHEMA)
            for table, column, decl in ADDED_COLUMNS:
                have = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
            self._db.executescript(INDEXES)
        self._queue: list[_Append] = []
        self._queue_lock = threading.Lock()
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []

    def size_bytes(self) -> int:
        """The database's size on disk: the file and its write-ahead log (0 in memory)."""
        if self.path == ":memory:":
            return 0
        total = 0
        for suffix in ("", "-wal"):
            with suppress(OSError):
                total += Path(self.path + suffix).stat().st_size
        return total

    def close(self) -> None:
        with self._lock:
            self._db.close()
            for db in self._readers:
                db.close()
            self._readers.clear()

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A connection to read with: the thread's own (a file), or the shared one (``:memory:``)."""
        if self.path == ":memory:":
            with self._lock:
                yield self._db
            return
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=10.0, check_same_thread=False)
            self._local.db = db
            with self._lock:
                self._readers.append(db)
        yield db

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # ------------------------------------------------------------------ games
    def create_game(
        self,
        rec: GameRecord,
        tokens: Sequence[tuple[str, Sequence[str]]],
        invites: Sequence[tuple[str, str]] = (),
    ) -> None:
        """Insert a game with its side tokens ``(token, sides)`` and invitations ``(side, invite)``."""
        now = time.time()
        with self._tx() as db:
            db.execute(
                "INSERT INTO games (id, created, ruleset, scenario_name, scenario, overrides, seed,"
                " seed_public, mode, players, seed_text) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    rec.id,
                    rec.created,
                    rec.ruleset,
                    rec.scenario_name,
                    json.dumps(rec.scenario, ensure_ascii=False),
                    json.dumps(rec.overrides, ensure_ascii=False),
                    rec.seed if rec.seed < 2**63 else -1,
                    int(rec.seed_public),
                    rec.mode,
                    json.dumps(rec.players),
                    str(rec.seed),
                ),
            )
            for token, sides in tokens:
                db.execute(
                    "INSERT INTO tokens VALUES (?,?,?,?)", (digest(token), rec.id, ",".join(sides), now)
                )
            for side, invite in invites:
                db.execute("INSERT INTO invites VALUES (?,?,?,0)", (rec.id, side, digest(invite)))

    def game(self, game_id: str) -> GameRecord | None:
        with self._read() as db:
            row = db.execute(
                "SELECT id, created, ruleset, scenario_name, scenario, overrides, seed, seed_public, mode,"
                " players, seed_text FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        if row is None:
            return None
        return GameRecord(
            row[0],
            row[1],
            row[2],
            row[3],
            json.loads(row[4]),
            json.loads(row[5]),
            int(row[10]) if row[10] is not None else int(row[6]),
            bool(row[7]),
            row[8],
            json.loads(row[9]),
        )

    def revision(self, game_id: str) -> int | None:
        """The game's revision (raised by each change of its orders), or None for no such game."""
        with self._read() as db:
            row = db.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else int(row[0])

    def orders_at(self, game_id: str) -> tuple[int, list[OrderRow]]:
        """The game's revision and its orders, read together (one snapshot of the file)."""
        with self._read() as db:
            db.execute("BEGIN")
            try:
                row = db.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
                rows = db.execute(
                    "SELECT seq, side, by, body, client_id FROM orders WHERE game_id = ? ORDER BY seq",
                    (game_id,),
                ).fetchall()
            finally:
                db.execute("COMMIT")
        rev = 0 if row is None else int(row[0])
        return rev, [OrderRow(int(r[0]), r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def game_count(self) -> int:
        with self._read() as db:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    # ------------------------------------------------------------------ orders
    def orders(self, game_id: str) -> list[OrderRow]:
        with self._read() as db:
            rows = db.execute(
                "SELECT seq, side, by, body, client_id FROM orders WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        return [OrderRow(int(r[0]), r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def append_orders(
        self, game_id: str, rows: Sequence[OrderRow], revision: int | None = None
    ) -> int | None:
        """Append orders in one transaction; the first ``seq`` must follow the last stored one and,
        with ``revision``, the game must still be at that revision (:class:`StoreConflict` if not).

        Returns once they are committed, with the game's new revision (None if ``rows`` is empty).
        Group commit: appends that arrive while another commit is under way wait for it, then go
        together in the next transaction (each in its own savepoint, so one refused append does not
        touch the others): one fsync for many orders, where each order alone would wait for every
        commit before it."""
        if not rows:
            return None
        req = _Append(game_id, list(rows), revision)
        with self._queue_lock:
            self._queue.append(req)
        with self._lock:
            if not req.finished:
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                self._commit(batch)
        if req.error is not None:
            raise req.error
        return req.result

    def _commit(self, batch: list[_Append]) -> None:
        db = self._db
        now = time.time()
        try:
            db.execute("BEGIN IMMEDIATE")
            for req in batch:
                db.execute("SAVEPOINT append")
                try:
                    self._insert(db, req, now)
                except StoreConflict as exc:
                    db.execute("ROLLBACK TO append")
                    req.error = exc
                db.execute("RELEASE append")
            db.execute("COMMIT")
        except Exception as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            for req in batch:
                req.error = req.error or exc
        finally:
            for req in batch:
                req.finished = True

    @staticmethod
    def _insert(db: sqlite3.Connection, req: _Append, now: float) -> None:
        game_id, rows = req.game_id, req.rows
        req.result = Store._next_revision(db, game_id, req.revision)
        last = db.execute("SELECT MAX(seq) FROM orders WHERE game_id = ?", (game_id,)).fetchone()[0]
        expect = 0 if last is None else int(last) + 1
        if rows[0].seq != expect:
            raise StoreConflict(f"order {rows[0].seq} of game {game_id} follows order {expect - 1}")
        try:
            db.executemany(
                "INSERT INTO orders (game_id, seq, side, by, body, created, client_id)"
                " VALUES (?,?,?,?,?,?,?)",
                [
                    (game_id, r.seq, r.side, r.by, json.dumps(r.order, ensure_ascii=False), now, r.client_id)
                    for r in rows
                ],
            )
        except sqlite3.IntegrityError:
            raise StoreConflict(f"an order of game {game_id} already has that client id") from None

    @staticmethod
    def _next_revision(db: sqlite3.Connection, game_id: str, expect: int | None) -> int:
        """Raise the game's revision (in the caller's transaction), checking it was ``expect``."""
        row = db.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreConflict(f"no game {game_id}")
        if expect is not None and int(row[0]) != expect:
            raise StoreConflict(f"game {game_id} is at revision {row[0]}, not {expect}")
        db.execute("UPDATE games SET revision = ? WHERE id = ?", (int(row[0]) + 1, game_id))
        return int(row[0]) + 1

    def truncate_orders(self, game_id: str, from_seq: int, revision: int | None = None) -> int:
        """Drop the orders from ``from_seq`` on (undo); with ``revision``, only if the game is still
        at it (:class:`StoreConflict` if not). Returns the game's new revision."""
        with self._tx() as db:
            new = self._next_revision(db, game_id, revision)
            db.execute("DELETE FROM orders WHERE game_id = ? AND seq >= ?", (game_id, from_seq))
        return new

    # ------------------------------------------------------------------ secrets
    def token_sides(self, game_id: str, token: str) -> list[str] | None:
        """The sides a token commands in a game, or None when it is not a token of that game."""
        with self._read() as db:
            rows = db.execute("SELECT digest, sides FROM tokens WHERE game_id = ?", (game_id,)).fetchall()
        return _match(rows, token)

    def add_token(self, game_id: str, token: str, sides: Sequence[str]) -> None:
        """Store one more token of a game (a spectator's)."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO tokens VALUES (?,?,?,?)", (digest(token), game_id, ",".join(sides), time.time())
            )

    def invites(self, game_id: str) -> dict[str, bool]:
        """side -> claimed, for the sides of a game played from another browser."""
        with self._read() as db:
            rows = db.execute("SELECT side, claimed FROM invites WHERE game_id = ?", (game_id,)).fetchall()
        return {r[0]: bool(r[1]) for r in rows}

    def claim_invite(self, game_id: str, invite: str, new_token: str) -> str | None:
        """Exchange an unclaimed invitation for a side token (once). Returns the side, or None."""
        with self._tx() as db:
            rows = db.execute(
                "SELECT digest, side FROM invites WHERE game_id = ? AND claimed = 0 AND digest IS NOT NULL",
                (game_id,),
            ).fetchall()
            found = _match(rows, invite)
            if found is None:
                return None
            side = found[0]
            db.execute(
                "UPDATE invites SET claimed = 1, digest = NULL WHERE game_id = ? AND side = ?",
                (game_id, side),
            )
            db.execute("INSERT INTO tokens VALUES (?,?,?,?)", (digest(new_token), game_id, side, time.time()))
        return side

    def reissue_invite(self, game_id: str, side: str, invite: str) -> bool:
        """Replace an unclaimed invitation (the old link stops working). False once claimed."""
        with self._tx() as db:
            cur = db.execute(
                "UPDATE invites SET digest = ? WHERE game_id = ? AND side = ? AND claimed = 0",
                (digest(invite), game_id, side),
            )
            return cur.rowcount == 1

# SPDX-License-Identifier: BSD-2-Clause
"""Storage of runs and their records: one schema and one set of migrations for SQLite (the
default: one file, Python's sqlite3) and PostgreSQL (Debian's python3-psycopg, psycopg 3).

Every statement is parameterized: a serial, a product string or a run id is data, never SQL and
never a path. Statements are written with '?' placeholders and given to psycopg as '%s'.

Tables (migration 1):
    runs     run_id (primary key), serial, product, started, schema_version, next_seq (the
             sequence number the next record must carry), first_seen, last_seen (Unix seconds,
             the collector's clock), ended (0/1), result (the report's classification once the
             end record arrived), invalid_reason (why the run is INVALID, if it is)
    records  (run_id, seq) primary key, type, body (the record's JSON text as received, less
             nothing), received
"""
import sqlite3
import threading

MIGRATIONS = [
    # 1: runs and records
    [
        "CREATE TABLE runs (run_id TEXT PRIMARY KEY, serial TEXT NOT NULL, product TEXT, started TEXT, "
        "schema_version INTEGER NOT NULL, next_seq BIGINT NOT NULL, first_seen DOUBLE PRECISION NOT NULL, "
        "last_seen DOUBLE PRECISION NOT NULL, ended INTEGER NOT NULL DEFAULT 0, result TEXT, invalid_reason TEXT)",
        "CREATE INDEX runs_serial ON runs (serial)",
        "CREATE TABLE records (run_id TEXT NOT NULL REFERENCES runs (run_id), seq BIGINT NOT NULL, "
        "type TEXT NOT NULL, body TEXT NOT NULL, received DOUBLE PRECISION NOT NULL, PRIMARY KEY (run_id, seq))",
    ],
]

RUN_COLUMNS = ("run_id", "serial", "product", "started", "schema_version", "next_seq", "first_seen",
               "last_seen", "ended", "result", "invalid_reason")


class Store:
    """A database connection used from one thread at a time (the collector runs every statement
    on one worker thread). `url`: a file path or sqlite:///PATH, or postgresql://..."""

    def __init__(self, url):
        self.url = url
        self.lock = threading.Lock()
        if url.startswith(("postgresql://", "postgres://")):
            import psycopg   # Debian python3-psycopg
            self.kind = "postgresql"
            self.conn = psycopg.connect(url, autocommit=False)
        else:
            path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url
            self.kind = "sqlite"
            self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            self.conn.execute("PRAGMA synchronous=NORMAL")
        self.migrate()

    # --- statements -------------------------------------------------------------------------
    def _sql(self, sql):
        return sql.replace("?", "%s") if self.kind == "postgresql" else sql

    def execute(self, sql, args=()):
        cur = self.conn.cursor()
        cur.execute(self._sql(sql), args)
        return cur

    def begin(self):
        if self.kind == "sqlite":
            self.conn.execute("BEGIN IMMEDIATE")

    def commit(self):
        self.conn.commit() if self.kind == "postgresql" else self.conn.execute("COMMIT")

    def rollback(self):
        if self.kind == "postgresql":
            self.conn.rollback()
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def migrate(self):
        """Apply the migrations the database has not seen, each in its own transaction."""
        self.begin()
        self.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)")
        done = {r[0] for r in self.execute("SELECT version FROM schema_migrations").fetchall()}
        self.commit()
        for n, stmts in enumerate(MIGRATIONS, 1):
            if n in done:
                continue
            self.begin()
            try:
                for s in stmts:
                    self.execute(s)
                self.execute("INSERT INTO schema_migrations (version) VALUES (?)", (n,))
                self.commit()
            except Exception:
                self.rollback()
                raise

    def version(self):
        return max(r[0] for r in self.execute("SELECT version FROM schema_migrations").fetchall())

    # --- runs and records -------------------------------------------------------------------
    def run(self, run_id):
        row = self.execute("SELECT %s FROM runs WHERE run_id = ?" % ", ".join(RUN_COLUMNS), (run_id,)).fetchone()
        return dict(zip(RUN_COLUMNS, row)) if row else None

    def runs(self, serial=None, since=None, until=None):
        where, args = [], []
        if serial is not None:
            where.append("serial = ?")
            args.append(serial)
        if since is not None:
            where.append("started >= ?")
            args.append(since)
        if until is not None:
            where.append("started <= ?")
            args.append(until)
        sql = "SELECT %s FROM runs%s ORDER BY first_seen, run_id" % (
            ", ".join(RUN_COLUMNS), (" WHERE " + " AND ".join(where)) if where else "")
        return [dict(zip(RUN_COLUMNS, r)) for r in self.execute(sql, args).fetchall()]

    def records(self, run_id):
        """[(seq, type, body text)] of one run, in sequence order."""
        return self.execute("SELECT seq, type, body FROM records WHERE run_id = ? ORDER BY seq",
                            (run_id,)).fetchall()

    def record_at(self, run_id, seq):
        row = self.execute("SELECT body FROM records WHERE run_id = ? AND seq = ?", (run_id, seq)).fetchone()
        return row[0] if row else None

    def insert_run(self, run_id, serial, product, started, schema, now):
        self.execute("INSERT INTO runs (run_id, serial, product, started, schema_version, next_seq, first_seen, "
                     "last_seen, ended) VALUES (?, ?, ?, ?, ?, 0, ?, ?, 0)",
                     (run_id, serial, product, started, schema, now, now))

    def insert_record(self, run_id, seq, rtype, body, now):
        self.execute("INSERT INTO records (run_id, seq, type, body, received) VALUES (?, ?, ?, ?, ?)",
                     (run_id, seq, rtype, body, now))

    def update_run(self, run_id, **fields):
        cols = sorted(fields)
        self.execute("UPDATE runs SET %s WHERE run_id = ?" % ", ".join("%s = ?" % c for c in cols),
                     [fields[c] for c in cols] + [run_id])

    def counts(self):
        runs = self.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        recs = self.execute("SELECT COUNT(*) FROM records").fetchone()[0]
        return runs, recs

    def close(self):
        self.conn.close()

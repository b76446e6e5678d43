# SPDX-License-Identifier: BSD-2-Clause
"""Taking records into the store: the rules of the upload protocol, pure over a Store.

An upload is a POST of JSON Lines to /api/v1/runs/RUN_ID/records, each line
    {"seq": N, "record": {...one efiperf record...}}
where RUN_ID names the run (letters, digits, '.', '_', '-'; 1 to 64 characters) and N counts the
run's records from 0 (the run record). The rules:
  - a run starts with seq 0, its run record; the schema it names is the one every later record
    of the run is validated against, with the validators efiperf-report uses (boot/report);
  - seq below the run's next_seq: a retry. The same record again is a duplicate, counted and
    dropped; a different one is refused (409), the stored one stays;
  - seq above next_seq: a gap (409, "expected seq N"): the client sends from N again;
  - a record that breaks the schema is refused (422) with the reason, nothing of that upload is
    stored, and the run is marked INVALID with that reason;
  - the end record closes the run: its result is classified as efiperf-report does.
An upload is stored whole or not at all (one transaction)."""
import json
import re
import time

from report import logs as L

RUN_ID_RE = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class Refused(Exception):
    """An upload the collector does not take: HTTP status and the reason."""

    def __init__(self, status, reason):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def parse_body(body):
    """[(seq, record, canonical JSON text)] of an upload body (bytes). Raises Refused(400)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Refused(400, "body is not UTF-8 (byte %d)" % e.start)
    items = []
    for i, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line, object_pairs_hook=L.no_duplicate_keys, parse_constant=L.no_constants)
        except ValueError as e:
            raise Refused(400, "line %d: invalid JSON (%s)" % (i, e))
        if not isinstance(obj, dict) or set(obj) != {"seq", "record"}:
            raise Refused(400, "line %d: not an object with exactly \"seq\" and \"record\"" % i)
        seq, rec = obj["seq"], obj["record"]
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise Refused(400, "line %d: seq is not a whole number >= 0" % i)
        if not isinstance(rec, dict) or not isinstance(rec.get("type"), str):
            raise Refused(400, "line %d: record is not an object with a string \"type\"" % i)
        items.append((seq, rec, json.dumps(rec, separators=(",", ":"), ensure_ascii=False)))
    if not items:
        raise Refused(400, "empty upload: no records")
    return items


def record_error(schema, rec):
    """None when `rec` matches schema version `schema`, else the reason (type, member, message)."""
    v = L.validators(schema).get(rec["type"])
    if v is None:
        return "record type %r is not in schema %d" % (rec["type"], schema)
    # members any record may carry (cpu_not_in_tables) are checked apart, as efiperf-report does
    common = {k: rec[k] for k in L.COMMON if k in rec}
    errs = sorted(L.common_validator(schema).iter_errors(common), key=lambda e: list(e.absolute_path))
    errs += sorted(v.iter_errors({k: x for k, x in rec.items() if k not in L.COMMON}), key=lambda e: list(e.absolute_path))
    if errs:
        where = "/".join(str(p) for p in errs[0].absolute_path) or "(record)"
        return "%s record, %s: %s" % (rec["type"], where, errs[0].message)
    return None


def serial_of(rec):
    """The serial a record names: the run record's log file stem (SERIAL-DATE-TIME), or the
    smbios record's log_serial (the string efiperf names its logs by)."""
    if rec["type"] == "smbios" and isinstance(rec.get("log_serial"), str):
        return rec["log_serial"]
    if rec["type"] == "run":
        stem = str(rec.get("log") or "").replace("\\", "/").rsplit("/", 1)[-1]
        return stem.split("-", 1)[0] or "noserial"
    return None


def classify(store, run_id):
    """The report's classification of a run's stored records (PASS, FAIL, ERROR, INCOMPLETE)."""
    recs = [json.loads(b) for _, _, b in store.records(run_id)]
    log = L.Log(run_id, recs)
    return log.result


def ingest(store, run_id, body, now=None):
    """Store one upload. Returns {"accepted": n, "duplicates": n, "next_seq": n}; raises Refused."""
    if not RUN_ID_RE.match(run_id):
        raise Refused(400, "run id must be 1-64 letters, digits, '.', '_' or '-'")
    items = parse_body(body)
    now = time.time() if now is None else now
    store.begin()
    try:
        out = _ingest(store, run_id, items, now)
        store.commit()
        return out
    except Refused as e:
        store.rollback()
        if e.status == 422 and store.run(run_id):
            store.begin()
            store.update_run(run_id, invalid_reason=e.reason, last_seen=now)
            store.commit()
        raise
    except Exception:
        store.rollback()
        raise


def _ingest(store, run_id, items, now):
    run = store.run(run_id)
    if run is None:
        seq, rec, _ = items[0]
        if seq != 0 or rec["type"] != "run":
            raise Refused(409, "unknown run %s: its first upload starts with seq 0, the run record" % run_id)
        schema = rec.get("schema")
        known = L.known_schemas()
        if not isinstance(schema, int) or isinstance(schema, bool) or schema not in known:
            raise Refused(422, "run record: schema %r is not one this collector knows (%s)"
                          % (schema, ", ".join(map(str, known))))
        err = record_error(schema, rec)
        if err:
            raise Refused(422, "seq 0: " + err)
        store.insert_run(run_id, serial_of(rec), None, str(rec.get("started") or ""), schema, now)
        run = store.run(run_id)
    nxt, accepted, dups, ended = run["next_seq"], 0, 0, False
    fields = {}
    for seq, rec, text in items:
        if seq < nxt:
            old = store.record_at(run_id, seq)
            if old != text:
                raise Refused(409, "seq %d already holds a different %s record" % (seq, json.loads(old)["type"]))
            dups += 1
            continue
        if seq > nxt:
            raise Refused(409, "gap: expected seq %d, got %d" % (nxt, seq))
        if run["ended"]:
            raise Refused(409, "seq %d: the run already ended" % seq)
        err = record_error(run["schema_version"], rec)
        if err:
            raise Refused(422, "seq %d: %s" % (seq, err))
        store.insert_record(run_id, seq, rec["type"], text, now)
        nxt += 1
        accepted += 1
        if rec["type"] == "smbios":
            fields["serial"] = serial_of(rec) or run["serial"]
            product = (rec.get("system") or {}).get("product")
            if isinstance(product, str):
                fields["product"] = product
        if rec["type"] == "end":
            ended = True
    fields.update(next_seq=nxt, last_seen=now)
    if ended:
        fields["ended"] = 1
    store.update_run(run_id, **fields)
    if ended:
        store.update_run(run_id, result=classify(store, run_id))
    return {"accepted": accepted, "duplicates": dups, "next_seq": nxt}


def status(run, now, stale):
    """A run's state for the pages: INVALID, its result once ended, INCOMPLETE when no record came
    for `stale` seconds and no end, else RUNNING."""
    if run["invalid_reason"]:
        return "INVALID"
    if run["ended"]:
        return run["result"] or "ERROR"
    return "INCOMPLETE" if now - run["last_seen"] > stale else "RUNNING"

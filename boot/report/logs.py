# SPDX-License-Identifier: BSD-2-Clause
"""Reading efiperf JSONL logs: strict parsing (RFC 8259 objects, one per line, no duplicate keys,
no NaN/Infinity), validation against the JSON Schema the run record's `schema` names
(schema/v<N>.json), and the run's classification:

    INVALID     not a log this tool can trust (bad JSON, schema violation, newer schema)
    INCOMPLETE  no `end` record: the run hung, reset or lost power mid-way
    ERROR       the verdict (or, without one, the end record) says the run reported errors
    FAIL        a check failed
    PASS        every check held
"""
import json
import os

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema")
EXIT = {"PASS": 0, "FAIL": 1, "INCOMPLETE": 2, "ERROR": 2, "INVALID": 3}


class InvalidLog(Exception):
    """A log that cannot be read or trusted; str() says what and where."""


def known_schemas():
    out = []
    for fn in os.listdir(SCHEMA_DIR):
        if fn.startswith("v") and fn.endswith(".json") and fn[1:-5].isdigit():
            out.append(int(fn[1:-5]))
    return sorted(out)


_validators = {}
# definitions that are parts of records, not record types
HELPERS = ("u64", "num", "nnum", "hex", "bdf", "restore", "window", "counter", "mux_groups", "load_source", "self_check",
           "cha_metrics", "iio_part", "cha_tor_latency")


def validators(version):
    """{record type: jsonschema validator} of schema version `version`."""
    if version not in _validators:
        import jsonschema   # Debian python3-jsonschema
        with open(os.path.join(SCHEMA_DIR, "v%d.json" % version)) as f:
            schema = json.load(f)
        defs = schema["definitions"]
        out = {}
        for name in defs:
            if name in HELPERS:
                continue
            sub = {"definitions": defs, "type": "object", "required": ["type"],
                   "properties": {"type": {"const": name}}, "allOf": [{"$ref": "#/definitions/%s" % name}]}
            out[name] = jsonschema.Draft7Validator(sub)
        _validators[version] = out
    return _validators[version]


# members any record may carry (the schema's top-level "properties" but "type"), validated there
COMMON = ("cpu_not_in_tables",)
_common = {}


def common_validator(version):
    """The validator of the members COMMON names, from the schema's top-level properties."""
    if version not in _common:
        import jsonschema
        with open(os.path.join(SCHEMA_DIR, "v%d.json" % version)) as f:
            top = json.load(f)["properties"]
        _common[version] = jsonschema.Draft7Validator({"type": "object", "additionalProperties": False,
                                                       "properties": {k: top[k] for k in COMMON}})
    return _common[version]


def no_duplicate_keys(pairs):
    """json.loads object_pairs_hook: a key twice in one object is an error (RFC 8259 4: names SHOULD be unique)."""
    d = {}
    for k, v in pairs:
        if k in d:
            raise ValueError("duplicate key %r" % k)
        d[k] = v
    return d


def no_constants(name):
    """json.loads parse_constant: NaN and Infinity are not JSON."""
    raise ValueError("non-JSON constant %s" % name)


class Log:
    """One log: path, records, the classification and what it rests on."""

    def __init__(self, path, records):
        self.path = path
        self.name = os.path.basename(path)
        self.records = records
        self.run = records[0]
        self.schema = self.run.get("schema")
        self.issues = []          # recompute disagreements (recompute.py)

    def of(self, rtype):
        return [r for r in self.records if r.get("type") == rtype]

    def first(self, rtype):
        rs = self.of(rtype)
        return rs[0] if rs else None

    @property
    def serial(self):
        sm = self.first("smbios")
        if sm and sm.get("log_serial"):
            return sm["log_serial"]
        stem = (self.run.get("log") or "").replace("\\", "/").rsplit("/", 1)[-1]
        return stem.split("-", 1)[0] if stem else "noserial"

    @property
    def verdict(self):
        return self.first("verdict")

    @property
    def ended(self):
        return self.records[-1].get("type") == "end"

    @property
    def result(self):
        if self.issues:
            return "INVALID"
        if not self.ended:
            return "INCOMPLETE"
        v = self.verdict
        if v:
            return v["result"]
        return "ERROR" if self.records[-1].get("status") == "error" or self.of("error") else "PASS"

    @property
    def checks(self):
        v = self.verdict
        return v["checks"] if v else []

    def summary(self):
        v = self.verdict
        checks = "checks=%d/%d" % (v["passed"], v["total"]) if v else "checks=-"
        why = ""
        if self.result == "INCOMPLETE":
            why = " (no end record: the run stopped after %d records, the last '%s')" % (
                len(self.records), self.records[-1].get("type"))
        elif self.result == "INVALID":
            why = " (%d recomputed values disagree; first: %s)" % (len(self.issues), self.issues[0])
        return "%-10s serial=%s log=%s %s%s" % (self.result, self.serial, self.path, checks, why)


def read_log(path):
    """Parse and validate one log. Raises InvalidLog with a message naming the file and line."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise InvalidLog("%s: cannot read: %s" % (path, e.strerror or e))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidLog("%s: not UTF-8 text (byte %d): not an efiperf JSONL log" % (path, e.start))
    if not text.strip():
        raise InvalidLog("%s: empty: not an efiperf JSONL log" % path)
    lines = text.split("\n")
    cut = lines[-1] != ""
    if not cut:
        lines.pop()
    records = []
    for i, line in enumerate(lines, 1):
        try:
            r = json.loads(line, object_pairs_hook=no_duplicate_keys, parse_constant=no_constants)
        except ValueError as e:
            last = i == len(lines)
            what = "truncated last line" if last and cut else "invalid JSON"
            raise InvalidLog("%s:%d: %s (%s): %.80r" % (path, i, what, e, line))
        if not isinstance(r, dict) or not isinstance(r.get("type"), str):
            raise InvalidLog("%s:%d: not a JSON object with a string \"type\"" % (path, i))
        records.append(r)
    if records[0]["type"] != "run":
        raise InvalidLog("%s:1: the first record is %r, not the run record: not an efiperf log" % (path, records[0]["type"]))
    validate(records, path)
    return Log(path, records)


def validate(records, name):
    """Check parsed records (first the run record) against the schema their run record names.
    Raises InvalidLog naming the record's line, its type and the member at fault."""
    schema = records[0].get("schema")
    known = known_schemas()
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise InvalidLog("%s:1: the run record has no integer schema (%r)" % (name, schema))
    if schema > max(known):
        raise InvalidLog("%s:1: log schema %d is newer than this efiperf-report knows (%s): update the tool"
                         % (name, schema, ", ".join(map(str, known))))
    if schema not in known:
        raise InvalidLog("%s:1: unknown log schema %d (known: %s)" % (name, schema, ", ".join(map(str, known))))
    vals = validators(schema)
    for i, r in enumerate(records, 1):
        v = vals.get(r["type"])
        if v is None:
            raise InvalidLog("%s:%d: record type %r is not in schema %d (boot/report/schema/v%d.json)"
                             % (name, i, r["type"], schema, schema))
        common = {k: r[k] for k in COMMON if k in r}
        errs = sorted(common_validator(schema).iter_errors(common), key=lambda e: list(e.absolute_path))
        errs += sorted(v.iter_errors({k: x for k, x in r.items() if k not in COMMON}), key=lambda e: list(e.absolute_path))
        if errs:
            e = errs[0]
            where = "/".join(str(p) for p in e.absolute_path) or "(record)"
            raise InvalidLog("%s:%d: %s record, %s: %s" % (name, i, r["type"], where, e.message))

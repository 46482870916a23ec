# ecs-check.jq - what ECS 8.17 says of a document, written from the schema's
# own definition (elastic/ecs at tag v8.17.0, generated/ecs/ecs_flat.yml:
# each field's "type", "normalize: array", "required", "allowed_values" and
# event.category's "expected_event_types"). Input: one document; output: an
# array with one string per violation.
#
# Every leaf outside the custom field set "nsaudit.*" must be one of the
# ECS fields below with its type: a field nsaudit starts to write is added
# here from ecs_flat.yml, or it fails (no field slips in unchecked).
# keyword: a JSON string; long: an integer; date: an RFC 3339 string;
# match_only_text: a string. "normalize: array" fields are arrays of their
# type; the others are never arrays.
def fields: {
  "@timestamp": "date", "message": "match_only_text", "ecs.version": "keyword",
  "event.kind": "keyword", "event.category": "keyword[]", "event.type": "keyword[]",
  "event.action": "keyword", "event.outcome": "keyword", "event.module": "keyword",
  "event.dataset": "keyword", "event.provider": "keyword", "event.sequence": "long",
  "event.severity": "long", "event.reason": "keyword", "error.code": "keyword",
  "rule.id": "keyword", "rule.name": "keyword", "rule.description": "keyword",
  "rule.reference": "keyword", "rule.ruleset": "keyword",
  "threat.framework": "keyword",
  "threat.technique.id": "keyword[]", "threat.technique.name": "keyword[]",
  "threat.technique.reference": "keyword[]",
  "threat.tactic.id": "keyword[]", "threat.tactic.name": "keyword[]",
  "threat.tactic.reference": "keyword[]",
  "process.pid": "long", "process.name": "keyword", "process.executable": "keyword",
  "process.thread.id": "long", "process.parent.pid": "long", "process.user.id": "keyword",
  "user.id": "keyword", "user.effective.id": "keyword",
  "container.id": "keyword", "container.name": "keyword",
  "orchestrator.type": "keyword", "orchestrator.namespace": "keyword",
  "orchestrator.resource.type": "keyword", "orchestrator.resource.name": "keyword",
  "host.name": "keyword", "host.hostname": "keyword", "host.id": "keyword",
  "host.boot.id": "keyword", "host.type": "keyword", "host.os.type": "keyword",
  "host.os.name": "keyword", "host.os.version": "keyword", "host.os.kernel": "keyword",
  "observer.vendor": "keyword", "observer.product": "keyword",
  "observer.version": "keyword", "observer.type": "keyword"
};
# allowed_values (host.os.type: expected_values)
def allowed: {
  "event.kind": ["alert", "asset", "enrichment", "event", "metric", "state",
                 "pipeline_error", "signal"],
  "event.outcome": ["failure", "success", "unknown"],
  "host.os.type": ["linux", "macos", "unix", "windows", "ios", "android"]
};
# event.category allowed_values, each with its expected_event_types (the
# event.type values that may go with it)
def categories: {
  "api": ["access", "admin", "allowed", "change", "creation", "deletion", "denied", "end",
          "info", "start", "user"],
  "authentication": ["start", "end", "info"],
  "configuration": ["access", "change", "creation", "deletion", "info"],
  "database": ["access", "change", "info", "error"], "driver": ["change", "end", "info", "start"],
  "email": ["info"], "file": ["access", "change", "creation", "deletion", "info"],
  "host": ["access", "change", "end", "info", "start"],
  "iam": ["admin", "change", "creation", "deletion", "group", "info", "user"],
  "intrusion_detection": ["allowed", "denied", "info"], "library": ["start"],
  "malware": ["info"],
  "network": ["access", "allowed", "connection", "denied", "end", "info", "protocol", "start"],
  "package": ["access", "change", "deletion", "info", "installation", "start"],
  "process": ["access", "change", "end", "info", "start"],
  "registry": ["access", "change", "creation", "deletion"], "session": ["start", "end", "info"],
  "threat": ["indicator"], "vulnerability": ["info"], "web": ["access", "error", "info"]
};
def rfc3339: test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$");
def is($t):
  if $t == "long" then type == "number" and . == floor
  elif $t == "date" then type == "string" and rfc3339
  else type == "string" end;
# the leaves: paths to scalars or to arrays of scalars (ECS arrays are values)
def leaves:
  paths(type != "object") as $p
  | select(($p | map(type == "number") | any) | not)
  | {path: ($p | join(".")), v: getpath($p)};
def check:
  . as $d
  | [ (["@timestamp", "ecs.version"][] as $k       # required: true
        | if ($d | getpath($k | split("."))) == null then "required \($k) missing" else empty end),
      (leaves | select(.path | startswith("nsaudit.") | not)
        | .path as $k | .v as $v | fields[$k] as $t
        | if $t == null then "\($k): not an ECS 8.17 field (custom fields go under nsaudit.*)"
          elif ($t | endswith("[]")) then
            (if ($v | type) != "array" then "\($k): not an array (normalize: array)"
             elif ($v | all(.[]; is($t[:-2]))) then empty
             else "\($k): not \($t): \($v | tojson)" end)
          elif ($v | type) == "array" then "\($k): an array, ECS has one value"
          elif ($v | is($t)) then empty
          else "\($k): not \($t): \($v | tojson)" end),
      (allowed | to_entries[] | .key as $k | .value as $a
        | ($d | getpath($k | split("."))) as $v
        | if $v == null or ($a | index([$v])) then empty
          else "\($k): \($v | tojson) is not an allowed value" end),
      ((.event.type // [])[] as $ty
        | if [categories[]] | add | index([$ty]) then empty
          else "event.type: \($ty | tojson) is not an allowed value" end),
      ((.event.category // [])[] as $c
        | if categories[$c] == null then "event.category: \($c | tojson) is not an allowed value"
          else ((.event.type // [])[] as $ty
            | if categories[$c] | index([$ty]) then empty
              else "event.type \($ty | tojson) is not expected with event.category \($c | tojson)" end)
          end),
      (if (.nsaudit // {} | type) != "object" then "nsaudit: the custom field set is not an object"
       else empty end)
    ];
check

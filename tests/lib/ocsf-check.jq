# ocsf-check.jq - what OCSF 1.8.0 requires of an event, written from the
# schema's own definitions (ocsf-schema at its 1.8.0 release: dictionary.json
# types, events/base_event.json, events/system/system.json,
# events/system/process_activity.json, events/findings/finding.json,
# events/findings/detection_finding.json, objects/*.json "requirement" and
# "constraints"). Input: one event; output: one string per violation.
def int: type == "number" and . == floor;
def str: type == "string";
def need($path; $t; pred):
  (try getpath($path) catch null) as $v
  | if $v == null then "missing \($path | join(".")) (\($t))"
    elif ($v | pred) then empty
    else "\($path | join(".")): not \($t): \($v | tojson)" end;
def may($path; $t; pred):
  (try getpath($path) catch null) as $v
  | if $v == null or ($v | pred) then empty else "\($path | join(".")): not \($t)" end;
# objects/process.json (process_entity): pid integer, name string; file
# (objects/file.json): name and type_id required; user.uid string
def process_ok($p):
  may($p + ["pid"]; "integer"; int), may($p + ["name"]; "string"; str),
  may($p + ["tid"]; "integer"; int),
  (if (try getpath($p + ["file"]) catch null) != null then
     need($p + ["file", "name"]; "string"; str), need($p + ["file", "type_id"]; "integer"; int)
   else empty end),
  may($p + ["user", "uid"]; "string"; str),
  may($p + ["parent_process", "pid"]; "integer"; int),
  may($p + ["container", "uid"]; "string"; str), may($p + ["container", "name"]; "string"; str);
# base_event.json: required attributes and their dictionary types
def base:
  need(["activity_id"]; "integer"; int), need(["category_uid"]; "integer"; int),
  need(["class_uid"]; "integer"; int), need(["severity_id"]; "integer"; int),
  need(["time"]; "timestamp_t (integer ms)"; int), need(["type_uid"]; "long"; int),
  need(["metadata"]; "object"; type == "object"),
  need(["metadata", "product"]; "object"; type == "object"),
  need(["metadata", "version"]; "string"; str),
  may(["metadata", "product", "name"]; "string"; str),
  may(["metadata", "product", "vendor_name"]; "string"; str),
  may(["metadata", "uid"]; "string"; str), may(["metadata", "sequence"]; "integer"; int),
  may(["metadata", "profiles"]; "string array"; type == "array" and all(.[]; type == "string")),
  may(["message"]; "string"; str), may(["status_id"]; "integer"; int),
  may(["status"]; "string"; str), may(["status_code"]; "string"; str),
  may(["time_dt"]; "datetime"; str), may(["unmapped"]; "object"; type == "object"),
  may(["timezone_offset"]; "integer"; int), may(["metadata", "original_time"]; "string"; str),
  # objects/observable.json: type_id required; name, value strings
  (.observables // [] | to_entries[] | .key as $i | .value
    | (if (.type_id | type) == "number" and .type_id == (.type_id | floor) then empty
       else "observables[\($i)].type_id: not integer" end),
      (if (.name // "" | type) == "string" and (.value // "" | type) == "string" then empty
       else "observables[\($i)]: name/value not strings" end)),
  (if .type_uid != (.class_uid * 100 + .activity_id) then "type_uid is not class_uid*100+activity_id" else empty end),
  (if .category_uid != ((.class_uid / 1000) | floor) then "category_uid does not match class_uid" else empty end),
  (if ([.severity_id] | inside([0, 1, 2, 3, 4, 5, 6, 99])) then empty else "severity_id \(.severity_id) not in its enum" end),
  # the Host profile's device (objects/device.json: type_id required, its
  # enum 1-8 plus the dictionary's 0 Unknown and 99 Other; objects/os.json:
  # name and type_id required, type_id in its enum)
  (if .device != null then need(["device", "type_id"]; "integer"; int),
     may(["device", "type_id"]; "device type in its enum"; [.] | inside([0, 1, 2, 3, 4, 5, 6, 7, 8, 99])),
     may(["device", "type"]; "string"; str),
     may(["device", "hostname"]; "string"; str), may(["device", "uid"]; "string"; str),
     may(["device", "boot_uid"]; "string"; str),
     (if .device.os != null then need(["device", "os", "name"]; "string"; str),
        need(["device", "os", "type_id"]; "integer"; int),
        may(["device", "os", "type_id"]; "os type in its enum";
            [.] | inside([0, 100, 101, 200, 201, 300, 301, 302, 400, 401, 402, 99])),
        may(["device", "os", "version"]; "string"; str)
      else empty end)
   else empty end);
# events/system/system.json: actor and device required;
# process_activity.json (1007): process required
def process_activity:
  need(["actor"]; "object"; type == "object"), need(["device"]; "object"; type == "object"),
  need(["process"]; "object"; type == "object"),
  process_ok(["process"]), process_ok(["actor", "process"]);
# finding.json: finding_info required; finding_info.json: uid required;
# analytic.json: type_id required; evidences.json: at least one of ...
def detection_finding:
  need(["finding_info"]; "object"; type == "object"),
  need(["finding_info", "uid"]; "string"; str),
  may(["finding_info", "title"]; "string"; str),
  (if .finding_info.analytic != null then need(["finding_info", "analytic", "type_id"]; "integer"; int) else empty end),
  may(["is_alert"]; "boolean"; type == "boolean"),
  may(["evidences"]; "array"; type == "array"),
  (.evidences // [] | to_entries[] | .key as $i | .value
    | if (keys | any(. as $k | ["actor", "api", "connection_info", "data", "database",
        "databucket", "device", "dst_endpoint", "email", "file", "process", "query",
        "resources", "src_endpoint", "url", "user", "job", "script"] | index($k))) then empty
      else "evidences[\($i)] has none of the attributes it needs one of" end),
  (.evidences // [] | to_entries[] | .key as $i | .value | [process_ok(["process"])][]
    | "evidences[\($i)]: \(.)"),
  (.finding_info.attacks // [] | .[]
    | if (.technique.uid | test("^T[0-9]{4}(\\.[0-9]{3})?$")) then empty
      else "attack technique uid \(.technique.uid)" end),
  may(["resources"]; "array"; type == "array"),
  may(["confidence_id"]; "integer"; int);
# The recommended attributes of a Detection Finding (detection_finding.json,
# finding.json, finding_info.json, base_event.json) that nsaudit fills
# whenever it has the data: each missing one is reported.
def recommended_finding:
  (["message", "status_id", "timezone_offset", "observables", "evidences", "is_alert",
    "resources", "confidence_id"][] as $k
    | if has($k) then empty else "recommended \($k) missing" end),
  (["title", "analytic"][] as $k
    | if (.finding_info | has($k)) then empty else "recommended finding_info.\($k) missing" end),
  (["log_name", "product", "original_time"][] as $k
    | if (.metadata | has($k)) then empty else "recommended metadata.\($k) missing" end);
def check:
  [base,
   (if .class_uid == 1007 then process_activity
    elif .class_uid == 2004 then detection_finding, recommended_finding
    elif .class_uid == 0 then empty
    else "class_uid \(.class_uid) is not one nsaudit writes" end)];
check

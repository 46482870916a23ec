/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * ocsf.h - records in the Open Cybersecurity Schema Framework (OCSF
 * 1.8.0), for Security Lake and the SIEMs that read it (docs/formats.md):
 *
 *   alert            Detection Finding (class_uid 2004): finding_info with
 *                    the rule as analytic, severity_id from the rule,
 *                    evidences (actor process, its container, the target
 *                    namespace), MITRE ATT&CK T1611 for escapes
 *   a process's call Process Activity (1007), activity "Other" named by op
 *   anything else    Base Event (0): lost records, the log's own
 *
 * Every field OCSF has no place for (namespace inodes and ids, via, the
 * actor's namespaces...) is kept under its nsaudit name in "unmapped".
 */
#ifndef NSAUDIT_OUTPUT_OCSF_H
#define NSAUDIT_OUTPUT_OCSF_H

#include <json-c/json.h>

#define OCSF_VERSION "1.8.0"

/* The OCSF event for rec (a flat record: event_to_json); NULL on ENOMEM. */
struct json_object *ocsf_event(struct json_object *rec);

#endif

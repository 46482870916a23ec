/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * ecs.h - records in the Elastic Common Schema (ECS 8.17), for Elastic
 * and the tools that read it (docs/formats.md): @timestamp, event.*
 * (kind "alert" for alerts), process.*, user.*, container.*, host.*,
 * rule.*, threat.technique.*; the namespace fields ECS has no place for
 * under the custom field set "nsaudit" with their record names.
 */
#ifndef NSAUDIT_OUTPUT_ECS_H
#define NSAUDIT_OUTPUT_ECS_H

#include <json-c/json.h>

#define ECS_VERSION "8.17.0"

/* The ECS document for rec (a flat record: event_to_json); NULL on ENOMEM. */
struct json_object *ecs_event(struct json_object *rec);

#endif

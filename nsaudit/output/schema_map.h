/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * schema_map.h - a record's flat object (event_to_json) turned into a
 * schema's nested one (OCSF: ocsf.c, ECS: ecs.c). Every field the mapping
 * takes is marked used; what no schema field takes is handed on whole
 * (OCSF's "unmapped", ECS's "nsaudit" set), so nothing is lost on the way.
 */
#ifndef NSAUDIT_OUTPUT_SCHEMA_MAP_H
#define NSAUDIT_OUTPUT_SCHEMA_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <json-c/json.h>

#include "codec.h"

#define SCHEMA_MAP_USED_MAX 64

struct schema_map {
	struct json_object *rec;	/* the flat record, only read */
	const char *used[SCHEMA_MAP_USED_MAX];
	int nused;
};

/* rec's string k (marked used), or NULL */
const char *map_str(struct schema_map *m, const char *k);
/* rec's integer k (marked used): false if absent */
bool map_int(struct schema_map *m, const char *k, int64_t *v);
/* mark k used without reading it */
void map_use(struct schema_map *m, const char *k);

/* o[k] = s (nothing when s is NULL); o[k] = v */
void put_str(struct json_object *o, const char *k, const char *s);
void put_int(struct json_object *o, const char *k, int64_t v);
void put_bool(struct json_object *o, const char *k, bool v);
/* o[k] = a new object (returned), or the one already there */
struct json_object *put_obj(struct json_object *o, const char *k);
/* o[k] = rec's value of rk as it is (marked used); false if absent */
bool put_copy(struct schema_map *m, struct json_object *o, const char *k, const char *rk);

/* Every field of rec not marked used, into o under its own name. */
void map_rest(struct schema_map *m, struct json_object *o);

/* The record's "time" in milliseconds since the epoch (0: none). */
int64_t map_time_ms(struct schema_map *m);

/* The last path component of path. */
const char *map_basename(const char *path);

/* One line: o with the log's JSON escaping (never invalid UTF-8), '\n'. */
void map_line(struct sbuf *b, struct json_object *o);

#endif

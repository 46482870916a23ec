// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* schema_map.c - helpers shared by the OCSF and ECS mappings. */
#include <string.h>

#include "schema_map.h"

void map_use(struct schema_map *m, const char *k)
{
	if (m->nused < SCHEMA_MAP_USED_MAX)
		m->used[m->nused++] = k;
}

static bool is_used(const struct schema_map *m, const char *k)
{
	int i;

	for (i = 0; i < m->nused; i++)
		if (!strcmp(m->used[i], k))
			return true;
	return false;
}

const char *map_str(struct schema_map *m, const char *k)
{
	struct json_object *v;

	if (!json_object_object_get_ex(m->rec, k, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	map_use(m, k);
	return json_object_get_string(v);
}

bool map_int(struct schema_map *m, const char *k, int64_t *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(m->rec, k, &v) || !json_object_is_type(v, json_type_int))
		return false;
	map_use(m, k);
	*out = json_object_get_int64(v);
	return true;
}

void put_str(struct json_object *o, const char *k, const char *s)
{
	if (s)
		json_object_object_add(o, k, json_object_new_string(s));
}

void put_int(struct json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

void put_bool(struct json_object *o, const char *k, bool v)
{
	json_object_object_add(o, k, json_object_new_boolean(v));
}

struct json_object *put_obj(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (json_object_object_get_ex(o, k, &v))
		return v;
	v = json_object_new_object();
	json_object_object_add(o, k, v);
	return v;
}

bool put_copy(struct schema_map *m, struct json_object *o, const char *k, const char *rk)
{
	struct json_object *v;

	if (!json_object_object_get_ex(m->rec, rk, &v))
		return false;
	map_use(m, rk);
	json_object_object_add(o, k, json_object_get(v));
	return true;
}

void map_rest(struct schema_map *m, struct json_object *o)
{
	json_object_object_foreach(m->rec, k, v)
	{
		if (!is_used(m, k))
			json_object_object_add(o, k, json_object_get(v));
	}
}

int64_t map_time_ms(struct schema_map *m)
{
	const char *t = map_str(m, "time");
	int64_t ns;

	if (!t || audit_time_parse(t, &ns))
		return 0;
	return ns / 1000000;
}

const char *map_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

void map_line(struct sbuf *b, struct json_object *o)
{
	audit_json_object(b, o);
	sb_put(b, "\n", 1);
}

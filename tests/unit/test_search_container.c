// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* search --container: by id, id prefix, podman name, container:ID names. */
#include <criterion/criterion.h>
#include <string.h>
#include <json-c/json.h>

#include "codec.h"
#include "search.h"

#define HEX64 "c1f69d1c01baf7da755cfcc545b914511b6b4ec566c8f7d8e522897f4f182840"

static bool match(const char *line, const char *want)
{
	struct audit_filter f = {0};
	struct audit_rec r = {0};
	bool m;

	/* the fields only: the MAC is verify's business, not the filter's */
	r.obj = json_tokener_parse(line);
	cr_assert_not_null(r.obj, "%s", line);
	f.container = want;
	m = audit_filter_match(&f, &r);
	json_object_put(r.obj);
	return m;
}

Test(search, container)
{
	const char *podman =
	    "{\"seq\":1,\"op\":\"setns\",\"ns_type\":\"net\",\"ns_inum\":4026532174,"
	    "\"ns_name\":\"netns-dd56\",\"container\":\"" HEX64 "\","
	    "\"container_name\":\"web\",\"pid\":7}";
	const char *docker =
	    "{\"seq\":2,\"op\":\"setns\",\"ns_type\":\"uts\",\"ns_inum\":4026532175,"
	    "\"old_name\":\"container:" HEX64 "\",\"pid\":7}";
	const char *none = "{\"seq\":3,\"op\":\"setns\",\"ns_type\":\"uts\",\"pid\":7}";

	cr_assert(match(podman, HEX64));
	cr_assert(match(podman, "c1f69d1c01ba"), "a 12-character prefix");
	cr_assert_not(match(podman, "c1f69d1c01b"), "11 characters are too few");
	cr_assert(match(podman, "web"));
	cr_assert_not(match(podman, "we"), "names match whole");
	cr_assert(match(docker, "c1f69d1c01baf7da"), "container:ID in old_name");
	cr_assert_not(match(none, "web"));
}

/* --container among the containers a log saw: id, name, unique prefix. */
Test(search, container_resolve)
{
	static const char *const lines[] = {
	    "{\"seq\":1,\"op\":\"setns\",\"container\":\"" HEX64 "\",\"container_name\":\"web\"}",
	    "{\"seq\":2,\"op\":\"setns\",\"container\":\"c1f6aaaa01baf7da755cfcc545b914511b6b4ec566c8f7d8e522897f4f182840\","
	    "\"container_name\":\"db\"}",
	    "{\"seq\":3,\"op\":\"setns\",\"actor_container\":\"host\"}",
	};
	struct audit_containers c = { 0 };
	const char *id = NULL;
	char err[1024];
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct audit_rec r = { 0 };

		r.obj = json_tokener_parse(lines[i]);
		cr_assert_not_null(r.obj);
		audit_containers_add_rec(&c, &r);
		json_object_put(r.obj);
	}
	cr_assert_eq(c.n, 2, "host is no container");
	cr_assert_eq(audit_containers_resolve(&c, "web", &id, err, sizeof(err)), 0);
	cr_assert_str_eq(id, HEX64);
	cr_assert_eq(audit_containers_resolve(&c, "c1f69d", &id, err, sizeof(err)), 0,
		     "a short prefix one container has");
	cr_assert_str_eq(id, HEX64);
	cr_assert_eq(audit_containers_resolve(&c, "c1f6", &id, err, sizeof(err)), -2);
	cr_assert(strstr(err, "web (c1f69d1c01ba)") && strstr(err, "db (c1f6aaaa01ba)"), "%s", err);
	cr_assert_eq(audit_containers_resolve(&c, "nosuch", &id, err, sizeof(err)), -1);
	cr_assert(strstr(err, "no such container") && strstr(err, "web"), "%s", err);
	audit_containers_free(&c);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* Container ids and names from the runtimes' own state files. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enrich/containers.h"
#include "enrich/runtime_state.h"
#include "tracer/tracer.h"

#define HEX64  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define HEX64B "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

Test(containers, oci_state_runc_and_crun)
{
	uint32_t pid;

	cr_assert(oci_state_pid("{\"id\":\"x\",\"init_process_pid\":4242,\"config\":{}}", &pid));
	cr_assert_eq(pid, 4242);
	cr_assert(oci_state_pid("{\"pid\": 77, \"bundle\": \"/b\", \"rootfs\": \"rootfs\"}", &pid));
	cr_assert_eq(pid, 77);
	/* being created (no pid yet), garbage, negative, huge: no pid */
	cr_assert_not(oci_state_pid("{\"id\":\"x\"}", &pid));
	cr_assert_eq(pid, 0);
	cr_assert_not(oci_state_pid("not json", &pid));
	cr_assert_not(oci_state_pid("{\"pid\":-3}", &pid));
	cr_assert_not(oci_state_pid("{\"pid\":99999999999}", &pid));
	cr_assert_not(oci_state_pid("", &pid));
}

struct seen {
	char ids[4][80], names[4][128];
	int n;
};

static void collect(void *ctx, const char *id, const char *name)
{
	struct seen *s = ctx;

	if (s->n < 4) {
		snprintf(s->ids[s->n], sizeof(s->ids[0]), "%s", id);
		snprintf(s->names[s->n], sizeof(s->names[0]), "%s", name);
		s->n++;
	}
}

Test(containers, podman_containers_json)
{
	struct seen s = {0};
	int n =
	    podman_names_parse("[{\"id\":\"" HEX64 "\",\"names\":[\"web\",\"alias\"],"
			       "\"image\":\"i\"},{\"id\":\"" HEX64B "\"},{\"names\":[\"noid\"]},"
			       "{\"id\":7,\"names\":[\"numid\"]}]",
			       collect, &s);

	cr_assert_eq(n, 4);
	cr_assert_eq(s.n, 2, "entries without a string id are skipped");
	cr_assert_str_eq(s.ids[0], HEX64);
	cr_assert_str_eq(s.names[0], "web", "the first name is podman's name");
	cr_assert_str_eq(s.names[1], "", "no names: empty");
	cr_assert_eq(podman_names_parse("{\"id\":1}", collect, &s), -1);
	cr_assert_eq(podman_names_parse("[", collect, &s), -1);
}

Test(containers, runtime_comms)
{
	cr_assert(runtime_comm("runc"));
	cr_assert(runtime_comm("runc:[1:CHILD]"));
	cr_assert(runtime_comm("crun"));
	cr_assert(runtime_comm("conmon"));
	cr_assert(runtime_comm("podman"));
	cr_assert_not(runtime_comm("ip"));
	cr_assert_not(runtime_comm("unshare"));
	cr_assert_not(runtime_comm("bash"));
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

/* A fake root: runc and crun state dirs and podman's containers.json. */
Test(containers, state_dirs_ids_names_prefixes)
{
	char root[] = "/tmp/nsaudit-ctr-XXXXXX", p[512];
	const struct container_info *ci;
	struct containers *c;

	cr_assert(mkdtemp(root));
	snprintf(p, sizeof(p),
		 "mkdir -p %s/run/runc/%s %s/run/runc/plain-id %s/run/runc/plain-idx %s/run/crun/%s "
		 "%s/run/runc/.hidden %s/var/lib/containers/storage/overlay-containers",
		 root, HEX64, root, root, root, HEX64B, root, root);
	cr_assert_eq(system(p), 0);
	snprintf(p, sizeof(p), "%s/run/runc/%s/state.json", root, HEX64);
	put(p, "{\"id\":\"" HEX64 "\",\"init_process_pid\":1}");
	snprintf(p, sizeof(p), "%s/run/crun/%s/status", root, HEX64B);
	put(p, "{\"pid\":1}");
	snprintf(p, sizeof(p), "%s/var/lib/containers/storage/overlay-containers/containers.json",
		 root);
	put(p, "[{\"id\":\"" HEX64 "\",\"names\":[\"web\"]},{\"id\":\"" HEX64B
	       "\",\"names\":[\"db\"]},{\"id\":\"cafe0000cafe0000\",\"names\":[\"created\"]}]");

	c = containers_new(root);
	cr_assert(c);
	cr_assert_eq(containers_count(c), 5, "three runc, one crun, one only in podman's storage");
	ci = containers_find(c, "web");
	cr_assert(ci);
	cr_assert_str_eq(ci->id, HEX64);
	cr_assert_str_eq(ci->runtime, "runc");
	ci = containers_find(c, "db");
	cr_assert(ci);
	cr_assert_str_eq(ci->runtime, "crun");
	cr_assert_str_eq(containers_find(c, "fedcba987654")->name, "db", "12-character prefix");
	cr_assert_null(containers_find(c, "fedcba98765"), "11 characters are too few");
	cr_assert_str_eq(containers_find(c, "plain-id")->id, "plain-id");
	cr_assert_str_eq(containers_find(c, "created")->id, "cafe0000cafe0000");
	cr_assert_null(containers_find(c, ".hidden"));
	cr_assert_null(containers_find(c, "nope"));
	{	/* --container: a short prefix one has; several; none */
		char list[512];

		cr_assert_eq(containers_resolve(c, "fedcba98", &ci, list, sizeof(list)), 0);
		cr_assert_str_eq(ci->name, "db", "docker's short prefixes (12 and fewer)");
		cr_assert_eq(containers_resolve(c, "web", &ci, list, sizeof(list)), 0);
		cr_assert_str_eq(ci->id, HEX64);
		cr_assert_eq(containers_resolve(c, "c", &ci, list, sizeof(list)), 0);
		cr_assert_str_eq(ci->name, "created", "one letter, one container");
		cr_assert_eq(containers_resolve(c, "plain", &ci, list, sizeof(list)), -2);
		cr_assert(strstr(list, "plain-id") && strstr(list, "plain-idx"), "%s", list);
		cr_assert_eq(containers_resolve(c, "nope", &ci, list, sizeof(list)), -1);
		cr_assert(strstr(list, "web (") && strstr(list, "db ("), "%s", list);
	}
	/* a test root's pids are not this machine's: no namespaces named */
	cr_assert_null(containers_by_ns(c, 0, 4026531840u, 0));
	containers_free(c);
	snprintf(p, sizeof(p), "rm -rf %s", root);
	system(p);
}

Test(containers, runc_state_bundle_and_oci_annotations)
{
	struct oci_meta m;
	char bundle[256];
	uint32_t pid;

	cr_assert(runc_state_parse("{\"init_process_pid\":42,\"config\":{\"labels\":"
				   "[\"x=y\",\"bundle=/run/b/ID\"]}}", &pid, bundle, sizeof(bundle)));
	cr_assert_eq(pid, 42);
	cr_assert_str_eq(bundle, "/run/b/ID");
	cr_assert(runc_state_parse("{\"config\":{\"labels\":[\"bundle=rel\"]}}", &pid, bundle,
				   sizeof(bundle)));
	cr_assert_eq(pid, 0);
	cr_assert_str_eq(bundle, "", "a relative bundle is no bundle");
	cr_assert_not(runc_state_parse("{", &pid, bundle, sizeof(bundle)));

	cr_assert(oci_config_meta("{\"annotations\":{\"io.kubernetes.pod.name\":\"web-0\","
				  "\"io.kubernetes.pod.namespace\":\"prod\","
				  "\"io.kubernetes.cri.container-name\":\"nginx\"}}", &m));
	cr_assert_str_eq(m.pod, "web-0");
	cr_assert_str_eq(m.pod_ns, "prod");
	cr_assert_str_eq(m.name, "nginx");
	cr_assert(oci_config_meta("{\"annotations\":{\"nerdctl/name\":\"n1\","
				  "\"io.kubernetes.pod.name\":7}}", &m));
	cr_assert_str_eq(m.name, "n1");
	cr_assert_str_eq(m.pod, "", "a number is no pod name");
	cr_assert(oci_config_meta("{}", &m));
	cr_assert_str_eq(m.name, "");
	cr_assert_not(oci_config_meta("[", &m));
}

Test(containers, docker_names_and_roots)
{
	char name[128], err[256], dir[512];

	cr_assert(docker_config_name("{\"ID\":\"abc\",\"Name\":\"/web\"}", name, sizeof(name)));
	cr_assert_str_eq(name, "web");
	cr_assert_not(docker_config_name("{\"Name\":\"\"}", name, sizeof(name)));
	cr_assert_not(docker_config_name("{\"Name\":\"/\"}", name, sizeof(name)));
	cr_assert_not(docker_config_name("not json", name, sizeof(name)));

	cr_assert_eq(runtime_root_set("docker", err, sizeof(err)), -1);
	cr_assert(strstr(err, "KIND=DIR"));
	cr_assert_eq(runtime_root_set("dockr=/x", err, sizeof(err)), -1);
	cr_assert(strstr(err, "unknown kind"));
	cr_assert_eq(runtime_root_set("containerd=rel", err, sizeof(err)), -1);
	runtime_root(RT_ROOT_DOCKER_DATA, "/pfx", dir, sizeof(dir));
	cr_assert_str_eq(dir, "/pfx/var/lib/docker", "defaults under a prefix");
	cr_assert_eq(runtime_root_set("crun=/srv/crun", err, sizeof(err)), 0);
	runtime_root(RT_ROOT_CRUN, "/pfx", dir, sizeof(dir));
	cr_assert_str_eq(dir, "/srv/crun", "a root given is used as it is");
}

/* A fake root: docker's runc state (a namespace level), its data root's
 * names, containerd's runc state and the bundle's CRI annotations. */
Test(containers, docker_and_containerd_state)
{
	char root[] = "/tmp/nsaudit-ctr-XXXXXX", p[1024];
	const struct container_info *ci;
	struct containers *c;

	cr_assert(mkdtemp(root));
	snprintf(p, sizeof(p),
		 "mkdir -p %s/run/docker/runtime-runc/moby/%s %s/var/lib/docker/containers/%s "
		 "%s/run/containerd/runc/k8s.io/%s %s/bundle",
		 root, HEX64, root, HEX64, root, HEX64B, root);
	cr_assert_eq(system(p), 0);
	snprintf(p, sizeof(p), "%s/run/docker/runtime-runc/moby/%s/state.json", root, HEX64);
	put(p, "{\"id\":\"" HEX64 "\",\"init_process_pid\":1}");
	snprintf(p, sizeof(p), "%s/var/lib/docker/containers/%s/config.v2.json", root, HEX64);
	put(p, "{\"Name\":\"/dweb\"}");
	snprintf(p, sizeof(p), "%s/run/containerd/runc/k8s.io/%s/state.json", root, HEX64B);
	{
		char st[600];

		snprintf(st, sizeof(st), "{\"init_process_pid\":1,\"config\":{\"labels\":"
			 "[\"bundle=%s/bundle\"]}}", root);
		put(p, st);
	}
	snprintf(p, sizeof(p), "%s/bundle/config.json", root);
	put(p, "{\"annotations\":{\"io.kubernetes.pod.name\":\"api-7\","
	       "\"io.kubernetes.pod.namespace\":\"shop\","
	       "\"io.kubernetes.cri.container-name\":\"api\"}}");
	c = containers_new(root);
	cr_assert(c);
	ci = containers_find(c, "dweb");
	cr_assert(ci, "docker's name from its data root");
	cr_assert_str_eq(ci->id, HEX64);
	cr_assert_str_eq(ci->runtime, "docker");
	ci = containers_find(c, "api");
	cr_assert(ci, "CRI's container name from the bundle");
	cr_assert_str_eq(ci->runtime, "containerd");
	cr_assert_str_eq(ci->pod, "api-7");
	cr_assert_str_eq(ci->pod_ns, "shop");
	containers_free(c);
	snprintf(p, sizeof(p), "rm -rf %s", root);
	system(p);
}

/*
 * ctr's task (containerd's own cgroup /NAMESPACE/ID, an ID the user
 * chose): named by the bundle containerd's shim made before runc ran, the
 * only state there is while runc's stage makes its namespaces (issue 41).
 * No bundle, a deeper or shallower path, or a ".." component: none.
 */
Test(containers, containerd_task_by_its_cgroup_and_bundle)
{
	char root[] = "/tmp/nsaudit-ctr-XXXXXX", p[1024], id[CONTAINER_ID_LEN];
	struct containers *c;

	cr_assert(mkdtemp(root));
	snprintf(p, sizeof(p), "mkdir -p %s/run/containerd/io.containerd.runtime.v2.task/nsb7/nsb7-ctr",
		 root);
	cr_assert_eq(system(p), 0);
	c = containers_new(root);
	cr_assert(c);
	cr_assert(containers_containerd_task(c, "/nsb7/nsb7-ctr", id, sizeof(id)));
	cr_assert_str_eq(id, "nsb7-ctr");
	cr_assert(containers_containerd_task(c, "/nsb7/nsb7-ctr\n", id, sizeof(id)));
	cr_assert_not(containers_containerd_task(c, "/nsb7/other", id, sizeof(id)),
		      "no bundle: no task");
	cr_assert_not(containers_containerd_task(c, "/nsb7/nsb7-ctr/sub", id, sizeof(id)));
	cr_assert_not(containers_containerd_task(c, "/nsb7", id, sizeof(id)));
	cr_assert_not(containers_containerd_task(c, "/", id, sizeof(id)));
	cr_assert_not(containers_containerd_task(c, "/../nsb7-ctr", id, sizeof(id)));
	cr_assert_not(containers_containerd_task(c, "/.hidden/x", id, sizeof(id)));
	containers_free(c);
	snprintf(p, sizeof(p), "rm -rf %s", root);
	system(p);
}

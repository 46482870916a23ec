// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * config.c - the --rules YAML file, parsed with libyaml (docs/rules.md):
 *
 *   trusted_exes: [/opt/runtimes/runc]
 *   rules:
 *     - id: userns-privilege        # a built-in rule: tune it
 *       enabled: false
 *       severity: warning
 *       exceptions:
 *         - container: web          # any one matching exception silences
 *         - exe: /usr/bin/buildah
 *           uid: 1000
 *     - id: net-entered-by-user     # one's own: a match and a summary
 *       summary: a user entered a network namespace
 *       severity: notice
 *       match: {op: setns, ns_type: net, uid: 1000}
 *
 * Every key is known or an error naming the file and line; everything is
 * checked before anything is applied.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "nstype.h"
#include "rules_impl.h"

struct cfg {
	yaml_document_t doc;
	const char *file;
	char *err;
	size_t errlen;
	struct rules *r;	/* the copy being filled */
	char (*trust)[COND_STR_LEN];
	int ntrust;
};

static int fail(struct cfg *c, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s:%zu: %s", c->file, n ? n->start_mark.line + 1 : 0, msg);
	return -1;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static yaml_node_t *node(struct cfg *c, int i)
{
	return yaml_document_get_node(&c->doc, i);
}

static int want_scalar(struct cfg *c, const yaml_node_t *v, const char *key, const char **out)
{
	*out = scalar(v);
	if (!*out)
		return fail(c, v, "'%s' needs a single value", key);
	return 0;
}

static int parse_bool(struct cfg *c, const yaml_node_t *v, const char *key, bool *out)
{
	const char *s;

	if (want_scalar(c, v, key, &s))
		return -1;
	if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on"))
		*out = true;
	else if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off"))
		*out = false;
	else
		return fail(c, v, "'%s': '%.64s' is not true or false", key, s);
	return 0;
}

static int parse_u32(struct cfg *c, const yaml_node_t *v, const char *key, uint32_t *out)
{
	const char *s;
	long l;

	if (want_scalar(c, v, key, &s))
		return -1;
	if (parse_long(s, 0, UINT32_MAX, &l))
		return fail(c, v, "'%s': '%.64s' is not a number", key, s);
	*out = (uint32_t)l;
	return 0;
}

static int parse_errno(const char *s)
{
	int i;

	for (i = 1; i < 134; i++)
		if (strerrorname_np(i) && !strcmp(strerrorname_np(i), s))
			return i;
	return -1;
}

static int copy_str(struct cfg *c, const yaml_node_t *v, const char *key, char *dst, size_t len)
{
	const char *s;

	if (want_scalar(c, v, key, &s))
		return -1;
	if (!*s || strlen(s) >= len)
		return fail(c, v, "'%s': empty or longer than %zu bytes", key, len - 1);
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

static int tri_of(struct cfg *c, const yaml_node_t *v, const char *key, enum cond_bool *out)
{
	bool b;

	if (parse_bool(c, v, key, &b))
		return -1;
	*out = b ? COND_TRUE : COND_FALSE;
	return 0;
}

/* One key of a condition (match: or an exception). */
static int cond_key(struct cfg *c, struct rule_cond *d, const char *k, const yaml_node_t *v)
{
	const char *s;
	struct nsspec ns;
	char err[128];

	if (!strcmp(k, "op") || !strcmp(k, "ns_type") || !strcmp(k, "result") ||
	    !strcmp(k, "error") || !strcmp(k, "ns")) {
		if (want_scalar(c, v, k, &s))
			return -1;
		if (!strcmp(k, "op") && (d->op = op_from_name(s)) < 0)
			return fail(c, v, "op: unknown operation '%.64s'", s);
		if (!strcmp(k, "ns_type") && (d->ns_type = nstype_from_name(s)) < 0)
			return fail(c, v, "ns_type: unknown namespace type '%.64s'", s);
		if (!strcmp(k, "result")) {
			if (strcmp(s, "ok") && strcmp(s, "failed"))
				return fail(c, v, "result: '%.64s' is not ok or failed", s);
			d->result = !strcmp(s, "ok") ? COND_TRUE : COND_FALSE;
		}
		if (!strcmp(k, "error") && (d->error = parse_errno(s)) < 0)
			return fail(c, v, "error: '%.64s' is not an errno name (EPERM, EACCES...)", s);
		if (!strcmp(k, "ns")) {
			if (nsspec_parse(s, false, &ns, err, sizeof(err)) || !ns.inum)
				return fail(c, v, "ns: %s", err);
			d->ns_inum = ns.inum;
		}
		return 0;
	}
	if (!strcmp(k, "uid"))
		return d->has_uid = true, parse_u32(c, v, k, &d->uid);
	if (!strcmp(k, "euid"))
		return d->has_euid = true, parse_u32(c, v, k, &d->euid);
	if (!strcmp(k, "comm"))
		return copy_str(c, v, k, d->comm, sizeof(d->comm));
	if (!strcmp(k, "exe"))
		return copy_str(c, v, k, d->exe, sizeof(d->exe));
	if (!strcmp(k, "actor_container"))
		return copy_str(c, v, k, d->actor_container, sizeof(d->actor_container));
	if (!strcmp(k, "target_container"))
		return copy_str(c, v, k, d->target_container, sizeof(d->target_container));
	if (!strcmp(k, "container"))
		return copy_str(c, v, k, d->container, sizeof(d->container));
	if (!strcmp(k, "host"))
		return tri_of(c, v, k, &d->host);
	if (!strcmp(k, "actor_host"))
		return tri_of(c, v, k, &d->actor_host);
	if (!strcmp(k, "same_container"))
		return tri_of(c, v, k, &d->same_container);
	if (!strcmp(k, "trusted"))
		return tri_of(c, v, k, &d->trusted);
	return fail(c, v, "unknown condition '%.64s' (see docs/rules.md)", k);
}

static int parse_cond(struct cfg *c, const yaml_node_t *m, const char *what, struct rule_cond *d)
{
	yaml_node_pair_t *p;

	cond_init(d);
	if (!m || m->type != YAML_MAPPING_NODE)
		return fail(c, m, "%s needs a mapping of conditions (key: value)", what);
	if (m->data.mapping.pairs.start == m->data.mapping.pairs.top)
		return fail(c, m, "%s has no condition", what);
	for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		const char *k = scalar(node(c, p->key));

		if (!k)
			return fail(c, node(c, p->key), "a condition's key must be a word");
		if (cond_key(c, d, k, node(c, p->value)))
			return -1;
	}
	return 0;
}

static int parse_exceptions(struct cfg *c, struct rule *ru, const yaml_node_t *v)
{
	yaml_node_item_t *it;

	if (!v || v->type != YAML_SEQUENCE_NODE)
		return fail(c, v, "exceptions: needs a list (- container: NAME ...)");
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		if (ru->nexc >= RULE_EXCEPTIONS_MAX)
			return fail(c, node(c, *it), "more than %d exceptions", RULE_EXCEPTIONS_MAX);
		if (parse_cond(c, node(c, *it), "an exception", &ru->exc[ru->nexc++]))
			return -1;
	}
	return 0;
}

/* "id:" first: a built-in rule, or a new one of one's own. */
static struct rule *rule_for(struct cfg *c, const yaml_node_t *m)
{
	yaml_node_pair_t *p;
	const char *id = NULL;
	struct rule *ru;
	size_t i;

	for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		const char *k = scalar(node(c, p->key));

		if (k && !strcmp(k, "id"))
			id = scalar(node(c, p->value));
	}
	if (!id || !*id) {
		fail(c, m, "a rule needs an 'id'");
		return NULL;
	}
	for (i = 0; id[i]; i++)
		if (!((id[i] >= 'a' && id[i] <= 'z') || (id[i] >= '0' && id[i] <= '9') ||
		      id[i] == '-' || id[i] == '_') || i >= RULE_ID_LEN - 1) {
			fail(c, m, "rule id '%.64s': only a-z, 0-9, '-' and '_', at most %d", id,
			     RULE_ID_LEN - 1);
			return NULL;
		}
	ru = rules_find(c->r, id);
	if (!ru && !(ru = rules_add(c->r, id)))
		fail(c, m, "too many rules (at most %d)", RULES_MAX);
	return ru;
}

static int parse_rule(struct cfg *c, const yaml_node_t *m)
{
	yaml_node_pair_t *p;
	struct rule *ru;
	bool has_match = false;
	const char *s;

	if (!m || m->type != YAML_MAPPING_NODE)
		return fail(c, m, "each rule is a mapping (- id: NAME ...)");
	ru = rule_for(c, m);
	if (!ru)
		return -1;
	for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		const char *k = scalar(node(c, p->key));
		yaml_node_t *v = node(c, p->value);

		if (!k)
			return fail(c, node(c, p->key), "a rule's key must be a word");
		if (!strcmp(k, "id"))
			continue;
		if (!strcmp(k, "enabled")) {
			if (parse_bool(c, v, k, &ru->enabled))
				return -1;
		} else if (!strcmp(k, "severity")) {
			if (want_scalar(c, v, k, &s))
				return -1;
			if ((ru->severity = rule_severity_parse(s)) < 0)
				return fail(c, v, "severity '%.32s': not a syslog level "
					    "(emerg alert crit err warning notice info debug)", s);
		} else if (!strcmp(k, "exceptions")) {
			if (parse_exceptions(c, ru, v))
				return -1;
		} else if (!strcmp(k, "summary") && !ru->builtin) {
			if (copy_str(c, v, k, ru->summary, sizeof(ru->summary)))
				return -1;
		} else if (!strcmp(k, "match") && !ru->builtin) {
			if (parse_cond(c, v, "match", &ru->cond))
				return -1;
			has_match = true;
		} else {
			return fail(c, node(c, p->key), "rule '%s': unknown or not allowed key '%.64s'%s",
				    ru->id, k, ru->builtin ? " (a built-in rule has its own match)" : "");
		}
	}
	if (!ru->builtin && (!has_match || !ru->summary[0]))
		return fail(c, m, "rule '%s' is not built in: it needs 'match' and 'summary'", ru->id);
	return 0;
}

static int parse_list(struct cfg *c, const yaml_node_t *v, const char *key, bool rules)
{
	yaml_node_item_t *it;

	if (!v || v->type != YAML_SEQUENCE_NODE)
		return fail(c, v, "'%s' needs a list", key);
	for (it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
		yaml_node_t *n = node(c, *it);
		const char *s;

		if (rules) {
			if (parse_rule(c, n))
				return -1;
			continue;
		}
		if (want_scalar(c, n, key, &s))
			return -1;
		if (s[0] != '/' || strlen(s) >= COND_STR_LEN || c->ntrust >= TRUST_MAX)
			return fail(c, n, "trusted_exes: '%.64s' is not an absolute path", s);
		snprintf(c->trust[c->ntrust++], COND_STR_LEN, "%s", s);
	}
	return 0;
}

static int parse_top(struct cfg *c)
{
	yaml_node_t *root = yaml_document_get_root_node(&c->doc);
	yaml_node_pair_t *p;

	if (!root)	/* an empty file: the defaults */
		return 0;
	if (root->type != YAML_MAPPING_NODE)
		return fail(c, root, "expected a mapping with 'rules:' and/or 'trusted_exes:'");
	for (p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		const char *k = scalar(node(c, p->key));
		yaml_node_t *v = node(c, p->value);

		if (k && !strcmp(k, "rules")) {
			if (parse_list(c, v, k, true))
				return -1;
		} else if (k && !strcmp(k, "trusted_exes")) {
			if (parse_list(c, v, k, false))
				return -1;
		} else {
			return fail(c, node(c, p->key), "unknown key '%.64s' (rules, trusted_exes)",
				    k ?: "?");
		}
	}
	return 0;
}

int rules_load_string(struct rules *r, const char *yaml, const char *name, char *err,
		      size_t errlen)
{
	struct cfg c = { .file = name, .err = err, .errlen = errlen };
	yaml_parser_t parser;
	int rc = -1, i;

	c.r = malloc(sizeof(*r));
	c.trust = calloc(TRUST_MAX, COND_STR_LEN);
	if (!c.r || !c.trust || !yaml_parser_initialize(&parser)) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto out;
	}
	memcpy(c.r, r, sizeof(*r));
	yaml_parser_set_input_string(&parser, (const unsigned char *)yaml, strlen(yaml));
	if (!yaml_parser_load(&parser, &c.doc)) {
		snprintf(err, errlen, "%s:%zu: %s", name, parser.problem_mark.line + 1,
			 parser.problem ?: "not YAML");
		yaml_parser_delete(&parser);
		goto out;
	}
	rc = parse_top(&c);
	yaml_document_delete(&c.doc);
	yaml_parser_delete(&parser);
	for (i = 0; !rc && i < c.ntrust; i++) {
		int e = facts_trust_exe(r->fx, c.trust[i]);

		if (e) {
			snprintf(err, errlen, "%s: trusted_exes: %s: %s", name, c.trust[i],
				 strerror(-e));
			rc = -1;
		}
	}
	if (!rc)
		memcpy(r, c.r, sizeof(*r));
out:
	free(c.r);
	free(c.trust);
	return rc;
}

int rules_load_file(struct rules *r, const char *path, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "re"), *m;
	int rc;

	if (!f) {
		snprintf(err, errlen, "--rules %s: %s", path, strerror(errno));
		return -1;
	}
	m = open_memstream(&buf, &len);
	if (m) {
		char chunk[4096];
		size_t n;

		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			fwrite(chunk, 1, n, m);
		fclose(m);
	}
	fclose(f);
	if (!buf) {
		snprintf(err, errlen, "--rules %s: out of memory", path);
		return -1;
	}
	if (strlen(buf) != len) {
		snprintf(err, errlen, "%s: a NUL byte: not a YAML text file", path);
		free(buf);
		return -1;
	}
	rc = rules_load_string(r, buf, path, err, errlen);
	free(buf);
	return rc;
}

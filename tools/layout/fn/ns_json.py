# ns_json(): task and fd/socket holders out into task_holders(), file_holders()
p='loader/holders/holders_json.c'
s=open(p).read()
a=s.index('json_object *ns_json(const struct model *m, const struct ns_ent *e)\n{')
b=s.index('\n}\n',a)+3
fn=s[a:b]
t0=fn.index('\tfor (i = 0; i < s->ntasks; i++) {')
t1=fn.index('\tfor (i = 0; i < s->nfiles; i++) {')
f1=fn.index('\tfor (i = 0; i < m->mounts.n; i++) {')
tasks=fn[t0:t1]; files=fn[t1:f1]
new_fn=fn[:t0]+'\ttask_holders(m, e, h);\n\tfile_holders(m, e, h);\n'+fn[f1:]
new_fn=new_fn.replace('\tchar buf[4200];\n','').replace('\tconst struct holders_scan *s = &m->scan;\n','',1)
helpers='''/* The tasks in it (pid, time: also those whose children will be). */
static void task_holders(const struct model *m, const struct ns_ent *e, json_object *h)
{
	const struct holders_scan *s = &m->scan;
	size_t i;

'''+tasks.rstrip('\n')+'''
}

/* Its open nsfs fds, and (net) the sockets in it. */
static void file_holders(const struct model *m, const struct ns_ent *e, json_object *h)
{
	const struct holders_scan *s = &m->scan;
	char buf[4200];
	size_t i;

'''+files.rstrip('\n')+'''
}

'''
c=s.rfind('\n\n',0,a)+2
s=s[:c]+helpers+s[c:a]+new_fn+s[b:]
open(p,'w').write(s)
print('ns_json: done')

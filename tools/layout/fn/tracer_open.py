# tracer_open(): loading a fresh object out into load_fresh()
p='loader/tracer/tracer.c'
s=open(p).read()
a=s.index('	t->skel = nsaudit_bpf__open();')
b=s.index('ring:\n')
body=s[a:b]
s=s[:a]+'''	if (load_fresh(t, err, errlen))
		goto fail;
'''+s[b:]
body=body.replace('goto fail;','return -1;').replace('\to->','\tt->o.').replace('(o->','(t->o.').replace(' o->',' t->o.').replace('!o->','!t->o.')
fn='''/*
 * A fresh object: the filters into .rodata, the hooks for this kernel,
 * load, attach, pin (record), and the start-up snapshot. 0, or -1 with err.
 */
static int load_fresh(struct tracer *t, char *err, size_t errlen)
{
	int rc;

'''+body+'''	return 0;
}

'''
i=s.index('struct tracer *tracer_open(')
j=s.rfind('\n\n',0,i)+2
s=s[:j]+fn+s[j:]
open(p,'w').write(s)
print('tracer_open: done (check that o-> is gone from load_fresh)')

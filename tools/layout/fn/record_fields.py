# record_fields(): the container fields (a contiguous block, order kept) out
# into container_fields(); then, if still long, the namespace fields into
# ns_fields(). The order of the fields is the output format: unchanged.
import re
p='loader/output/record_fmt.c'
s=open(p).read()
a=s.index('void record_fields(struct audit_fields *f, const struct nsaudit_event *e,')
b=s.index('\n}\n',a)+3
fn=s[a:b]
c0=fn.index('\tif (x->container)\n')
c1=fn.index('\tif (x->unresolved)\n')
block=fn[c0:c1]
fn=fn[:c0]+'\tcontainer_fields(f, x);\n'+fn[c1:]
helpers='''/* The containers: the record's, the namespace's owner, the actor's. */
static void container_fields(struct audit_fields *f, const struct event_extra *x)
{
'''+block+'''}

'''
if fn.count('\n') > 100:
    n0=fn.index('\tif (type)\n\t\tstr(f, "ns_type", type);\n')
    n1=fn.index('\tif (e->flags & NSAUDIT_F_FOR_CHILDREN)\n')
    n1=fn.index('\n',fn.index('\n',n1)+1)+1
    nblock=fn[n0:n1]
    fn=fn[:n0]+'\tns_fields(f, e, x, type);\n'+fn[n1:]
    helpers+='''/* The namespace the record is about, and the one left. */
static void ns_fields(struct audit_fields *f, const struct nsaudit_event *e,
		      const struct event_extra *x, const char *type)
{
'''+nblock+'''}

'''
c=s.rfind('\n\n',0,a)+2
s=s[:c]+helpers+s[c:a]+fn+s[b:]
open(p,'w').write(s)
print('record_fields: done, %d lines' % fn.count('\n'))

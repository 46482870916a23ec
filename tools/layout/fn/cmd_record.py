# cmd_record(): the command line out into parse_args()
p='loader/cmd/cmd_record.c'
s=open(p).read()
a=s.index('int cmd_record(int argc, char **argv)\n{')
start_own=s.index('	static const struct option own[] = {',a)
end_parse=s.index('	if (!pin)\n		o.pin_dir = NULL;\n',a)+len('	if (!pin)\n		o.pin_dir = NULL;\n')
block=s[start_own:end_parse]
decl_end=block.index('\n\n')+2       # the declarations of cmd_record
decls=block[:decl_end]
body=block[decl_end:]
own_end=decls.index('\t};\n')+4
own=decls[:own_end]
rest=decls[own_end:]
# declarations the parser needs vs the command keeps
keep=[]; parse=[]
for l in rest.split('\n'):
    if not l.strip(): continue
    if 'pin_dir_msg' in l or 'struct option opts[' in l: parse.append(l)
    elif l.startswith('\tint c, '): keep.append('\tint i, rc;'); parse.append('\tint c, idx = -1, rc;')
    elif l.startswith('\tbool pin = true'): keep.append('\tbool keep_pinned = false;'); parse.append('\tbool pin = true;')
    else: keep.append(l)
new_head='\n'.join(keep)+'''

	rc = parse_args(argc, argv, &o, &lo, &r, &keep_pinned);
	if (rc >= 0)
		return rc;
'''
s=s[:start_own]+new_head+s[end_parse:]
b=body
b=b.replace('tracer_opts_init(&o);','tracer_opts_init(o);').replace('audit_log_opts_init(&lo);','audit_log_opts_init(lo);')
b=b.replace('o.pin_dir','o->pin_dir').replace('keep_pinned = true;','*keep_pinned = true;')
b=b.replace('&r.sinks, &lo, &o,','&r->sinks, lo, o,').replace('(!lo.dir)','(!lo->dir)')
b=b.replace('	if (!pin)\n		o->pin_dir = NULL;\n','	if (!pin)\n		o->pin_dir = NULL;\n	return -1;\n')
fn='''/*
 * The command line into o, lo and r's sinks: -1 to go on, or the exit
 * status (--help, a bad option or value).
 */
static int parse_args(int argc, char **argv, struct tracer_opts *o, struct audit_log_opts *lo,
		      struct recorder *r, bool *keep_pinned)
{
'''+own+'\n'.join(parse)+'\n\n'+b+'}\n\n'
c=s.rfind('\n\n',0,a)+2
s=s[:c]+fn+s[c:]
open(p,'w').write(s)
print('cmd_record: done (check the declarations of both functions)')

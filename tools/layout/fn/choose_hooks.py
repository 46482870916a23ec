# choose_hooks(): the syscalls this kernel lacks, out into skip_missing_syscalls()
p='loader/tracer/tracer_hooks.c'
s=open(p).read()
a=s.index('void choose_hooks(struct tracer *t)\n{')
b=s.index('\t/* some syscalls do not exist on every kernel', a)
e=s.index('\t}\n', s.index('\tfor (i = 0; i < sizeof(syscalls)', a)) + 3
head=s[a:b]
decl_start=head.index('\tconst struct {')
decl_end=head.index('\t};\n')+4
table=head[decl_start:decl_end]
rest_decls=head[decl_end:]
loop=s[b:e]
loop=loop.replace('\t/* some syscalls do not exist on every kernel (open on arm64, ...) */\n','')
rest_decls=rest_decls.replace('\tchar path[128];\n','').replace('\tsize_t i;\n','')
fn='''/* Some syscalls do not exist on every kernel (open on arm64, ...): their
 * programs stay out. */
static void skip_missing_syscalls(struct nsaudit_bpf *s)
{
'''+table+'''	char path[128];
	size_t i;

'''+loop+'''}

'''
new=head[:decl_start]+rest_decls.rstrip('\n')+'\n\n\tskip_missing_syscalls(s);\n'
s=s[:a]+fn+new+s[e:]
if '#include <unistd.h>' not in s:
    s=s.replace('#include <string.h>\n','#include <string.h>\n#include <unistd.h>\n',1)
open(p,'w').write(s)
print('choose_hooks: done')

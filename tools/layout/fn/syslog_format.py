# syslog_format(): a value that is not clean UTF-8 out into add_hex_param()
p='loader/output/sink_syslog.c'
s=open(p).read()
a=s.index('		if (json_object_is_type(val, json_type_string) && needs_hex(s)) {')
b=s.index('			continue;\n		}\n		add_param(f, key, s);',a)
blk=s[a:b]
inner=blk[blk.index('\n')+1:]
inner=inner.replace('\t\t\t/* keep lines whole and UTF-8: U+FFFD in the value, exact bytes in KEY_hex */\n','')
inner='\n'.join(l[2:] if l.startswith('\t\t') else l for l in inner.split('\n'))
inner=inner.replace('\t\tcontinue;\n','\t\treturn;\n')
inner=inner.replace('\tsize_t n = strlen(s), i, o = 0;\n\tchar *clean = malloc(3 * n + 1), *hex = malloc(2 * n + 1);\n','\tsize_t n = strlen(s), i, o = 0;\n\tchar *clean = malloc(3 * n + 1), *hex = malloc(2 * n + 1);\n\tchar hexkey[64];\n',1)
fn='''/*
 * A string value that is not clean UTF-8 (control bytes, invalid
 * sequences): lines stay whole and UTF-8, with U+FFFD in the value and the
 * exact bytes in KEY_hex (unless the record has a field of that name).
 */
static void add_hex_param(FILE *f, struct json_object *rec, const char *key, const char *s)
{
'''+inner.rstrip('\n\t')+'\n}\n\n'
s=s[:a]+'		if (json_object_is_type(val, json_type_string) && needs_hex(s)) {\n			add_hex_param(f, rec, key, s);\n'+s[b:]
s=s.replace(', hexkey[64], anchor[256];',', anchor[256];')
i=s.index('char *syslog_format(struct json_object *rec')
c=s.rfind('\n\n',0,i)+2
s=s[:c]+fn+s[c:]
open(p,'w').write(s)
print('syslog_format: done')

# after csplit of lifetime.spec: names, the stop flag, the include
import re
for p in ['loader/lifetime/log_reader.c', 'loader/cmd/cmd_lifetime.c']:
    s = open(p).read()
    s = re.sub(r'\bstruct reader\b', 'struct log_reader', s)
    s = re.sub(r'\bread_log\(', 'log_read(', s)
    s = re.sub(r'(?<![_.])\bfollow\(', 'log_follow(', s)
    open(p, 'w').write(s)
p = 'loader/lifetime/log_reader.c'
s = open(p).read()
s = s.replace('static int log_read(', 'int log_read(').replace(
    'static int log_follow(struct log_reader *rd, rec_fn fn, void *ctx)',
    'int log_follow(struct log_reader *rd, rec_fn fn, void *ctx, volatile sig_atomic_t *stop)')
s = s.replace('\twhile (!stop) {', '\twhile (!*stop) {')
s = re.sub(r'\tcmd_error\("lifetime", 0, "following %s/%s \(Ctrl-C stops\)", rd->dir,\n\t\t  rd->seg \? seg : "nsaudit-\*\.log"\);',
           '\tERR("following %s/%s (Ctrl-C stops)", rd->dir, rd->seg ? seg : "nsaudit-*.log");', s)
s = s.replace('/* Every record of every segment, oldest first. 0, or -1 with errno. */\n', '')
assert 'cmd_error' not in s, 'log_reader.c still calls cmd_error'
open(p, 'w').write(s)
p = 'loader/lifetime/log_reader.h'
s = open(p).read()
s = re.sub(r'\bstruct reader\b', 'struct log_reader', s)
s = s.rstrip('\n') + '''

/* Every record of every segment, oldest first. 0, or -1 with errno. */
int log_read(struct log_reader *rd, rec_fn fn, void *ctx);

/*
 * Then every record appended after those, across rotations, until *stop:
 * a line on stderr says what is followed. 0, or 1 (out of memory).
 */
int log_follow(struct log_reader *rd, rec_fn fn, void *ctx, volatile sig_atomic_t *stop);

#endif
'''
open(p, 'w').write(s)
p = 'loader/cmd/cmd_lifetime.c'
s = open(p).read()
s = s.replace('#include "lifetime/lifetime.h"\n', '#include "lifetime/lifetime.h"\n#include "lifetime/log_reader.h"\n')
s = re.sub(r'log_follow\(([^;]*?)\);', lambda m: 'log_follow(%s, &stop);' % m.group(1), s)
s = re.sub(r'\n{3,}', '\n\n', s)
open(p, 'w').write(s)
print('lifetime-fix: done')

# after csplit of log.spec
p = 'audit/log.c'
s = open(p).read()
s = s.replace(" * Rotation and the full-disk policies are in log_rotate.c, opening and\n * recovery after an unclean stop in log_recover.c; log_impl.h is what they\n * share.",
              " * Rotation and the full-disk policies are in log_rotate.c, opening and\n * recovery after an unclean stop in log_recover.c, sealing an epoch and\n * the tail anchors in log_seal.c; log_impl.h is what they share.")
open(p, 'w').write(s)
print('log-fix: done')

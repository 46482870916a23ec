# after csplit of holders.spec: the comments that name the files
p = 'loader/holders/holders_model.c'
s = open(p).read()
s = s.replace(' * holders_model.c - who keeps', ' * holders_model.c - who keeps')
s = s.replace(' * holders_model.c - who keeps', ' * holders_model.c - who keeps')
s = s.replace('"nsaudit lifetime" (holders_now()).', '"nsaudit lifetime" (holders_now.c).')
s = s.replace(" * Output is in holders_json.c and holders_text.c; holders_model.h is what\n * the parts share.\n",
              " * Output is in holders_json.c and holders_text.c, which call the model\n * (never the other way round); holders_model.h is what the parts share.\n")
open(p, 'w').write(s)
print('holders-fix: done')

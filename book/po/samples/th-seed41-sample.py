import polib, random, re, json
BOOK_FILES = {'introduction.md','why-pool.md','bucket-rounding.md','stale-data.md','return-contract.md','capacity.md','cliff.md','chunking.md','size-specialized.md','method.md','glossary.md'}
def first_ref(e):
    return e.occurrences[0][0] if e.occurrences else ''
def strip(s):
    s = re.sub(r'```.*?```', ' ', s, flags=re.S)
    s = re.sub(r'\{\{#.*?\}\}', ' ', s)
    s = re.sub(r'`[^`]*`', ' ', s)
    s = re.sub(r'\]\([^)]*\)', ']', s)
    s = re.sub(r'<[^>]+>', ' ', s)
    return s
book = polib.pofile('/tmp/grade41/book-th.po')
lab = polib.pofile('/tmp/grade41/lab-th.po')
bpool = []
for e in book:
    if e.obsolete or not e.msgid: continue
    r = first_ref(e)
    if not r.startswith('src/'): continue
    if r[len('src/'):] not in BOOK_FILES: continue
    if e.msgid.startswith('//'): continue
    if len(strip(e.msgid).split()) <= 3: continue
    bpool.append(e)
lpool = []
for e in lab:
    if e.obsolete or not e.msgid: continue
    if not any(o[0].startswith('wasm-lab/src/') for o in e.occurrences): continue
    toks = e.msgid.replace('{}', ' ').split()
    words = [t for t in toks if re.search(r'[A-Za-z]', t)]
    if len(words) >= 5 or len(e.msgid.split()) >= 7:
        lpool.append(e)
random.seed(41)
bs = random.sample(bpool, 60)
ls = random.sample(lpool, 20)
print('book pool', len(bpool), 'lab pool', len(lpool))
out = []
for cat, lst in (('book', bs), ('lab', ls)):
    for i, e in enumerate(lst):
        ref = ' '.join(f'{a}:{b}' for a,b in e.occurrences[:2])
        ms = e.msgstr if e.msgstr else json.dumps(e.msgstr_plural, ensure_ascii=False)
        mi = e.msgid + (('\n[PLURAL] ' + e.msgid_plural) if e.msgid_plural else '')
        out.append({'cat':cat,'n':i+1,'ref':ref,'msgid':mi,'msgstr':ms,'ctx':e.msgctxt})
json.dump(out, open('sample.json','w'), ensure_ascii=False, indent=1)
with open('sample_list.txt','w') as f:
    for o in out:
        f.write(f"### {o['cat']} {o['n']} | {o['ref']} | ctx={o['ctx']}\nEN: {o['msgid']}\nTH: {o['msgstr']}\n\n")

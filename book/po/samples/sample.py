#!/usr/bin/env python3
"""Reproducible sample of a catalog for the fresh-sample review (issue #38), any language.

    python3 sample.py SEED BOOK_PO LAB_PO OUT_DIR

random.seed(SEED); random.sample(book_pool, 60) first, then random.sample(lab_pool, 20); writes
OUT_DIR/sample.json and OUT_DIR/sample.txt. Pools are in catalog (polib) order, fuzzy/obsolete
excluded. The filters are those of ru-seed41-sample.py; seeds 42 (ru, th) and 43 (th) were drawn
with this script from the catalogs as committed before each sample."""
import random, re, json, sys, polib

BOOK = LAB = None  # set from the command line
CHAPTERS = {f'src/{n}' for n in ['introduction.md', 'why-pool.md', 'bucket-rounding.md',
            'stale-data.md', 'return-contract.md', 'capacity.md', 'cliff.md', 'chunking.md',
            'size-specialized.md', 'method.md', 'glossary.md']}
WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")

def book_prose(s):
    s = re.sub(r'```.*?```', ' ', s, flags=re.S)           # code blocks
    s = re.sub(r'\{\{#.*?\}\}', ' ', s, flags=re.S)         # mdBook directives
    s = re.sub(r'(`+)(?:(?!\1).)+?\1', ' ', s, flags=re.S)  # code spans (single or double backtick)
    s = re.sub(r'\]\([^)]*\)', '] ', s)                      # inline link targets
    s = re.sub(r'^\s*\[[^\]]+\]:\s*\S+.*$', ' ', s, flags=re.M)  # reference link definitions
    s = re.sub(r'<[^>]+>', ' ', s)                           # HTML
    s = s.replace('{}', ' ')
    return s

def first_ref(e):
    return e.occurrences[0][0] if e.occurrences else ''

def book_pool():
    po = polib.pofile(BOOK)
    out = []
    for e in po:
        if e.obsolete or 'fuzzy' in e.flags: continue
        if first_ref(e) not in CHAPTERS: continue
        if e.msgid.startswith('//'): continue
        if len(WORD.findall(book_prose(e.msgid))) < 4: continue
        out.append(e)
    return out

LABWORD = re.compile(r"[A-Za-z0-9]+(?:['’.\-][A-Za-z0-9]+)*")
def lab_pool():
    po = polib.pofile(LAB)
    out = []
    for e in po:
        if e.obsolete or 'fuzzy' in e.flags: continue
        if not any(f.startswith('wasm-lab/src/') for f, _ in e.occurrences): continue
        if len(LABWORD.findall(e.msgid.replace('{}', ' '))) < 5: continue
        out.append(e)
    return out

if __name__ == '__main__':
    seed, BOOK, LAB, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    bp, lp = book_pool(), lab_pool()
    random.seed(seed)
    bs = random.sample(bp, 60)
    ls = random.sample(lp, 20)
    print(f'book pool {len(bp)}, lab pool {len(lp)}')
    rows = []
    for cat, sample in (('book', bs), ('lab', ls)):
        for i, e in enumerate(sample, 1):
            ref = ' '.join(f'{f}:{l}' for f, l in e.occurrences)
            rows.append(dict(cat=cat, n=i, line=e.linenum, ref=ref, msgid=e.msgid,
                             msgstr=e.msgstr or e.msgstr_plural))
    json.dump(rows, open(f'{out}/sample.json', 'w'), ensure_ascii=False, indent=1)
    with open(f'{out}/sample.txt', 'w') as f:
        for r in rows:
            f.write(f"=== {r['cat']} #{r['n']} (po line {r['line']}) {r['ref']}\n--- EN\n{r['msgid']}\n--- TRANSLATION\n{r['msgstr']}\n\n")

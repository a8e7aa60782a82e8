#!/usr/bin/env python3
"""Reproducible sample for the fresh-sample review (issue #38).
random.seed(43); random.sample(book_pool, 60) first, then random.sample(lab_pool, 20).
Pools are in catalog (polib) order, fuzzy/obsolete excluded (there are none)."""
import random, re, json, polib

BOOK = '/tmp/grade43/book-th.po'
LAB = '/tmp/grade43/lab-th.po'
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
    bp, lp = book_pool(), lab_pool()
    random.seed(43)
    bs = random.sample(bp, 60)
    ls = random.sample(lp, 20)
    print(f'book pool {len(bp)}, lab pool {len(lp)}')
    rows = []
    for cat, sample in (('book', bs), ('lab', ls)):
        for i, e in enumerate(sample, 1):
            ref = ' '.join(f'{f}:{l}' for f, l in e.occurrences)
            rows.append(dict(cat=cat, n=i, line=e.linenum, ref=ref, msgid=e.msgid,
                             msgstr=e.msgstr or e.msgstr_plural))
    json.dump(rows, open('/tmp/grade43/th/sample.json', 'w'), ensure_ascii=False, indent=1)
    with open('/tmp/grade43/th/sample.txt', 'w') as f:
        for r in rows:
            f.write(f"=== {r['cat']} #{r['n']} (po line {r['line']}) {r['ref']}\n--- EN\n{r['msgid']}\n--- TRANSLATION\n{r['msgstr']}\n\n")

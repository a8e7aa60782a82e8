#!/usr/bin/env python3
"""Fresh sample for issue #38 (ru). Reproducible: random.seed(38).

Book (book/po/ru.po): entries whose FIRST `#:` reference is in one of the story
chapters or method/glossary, with real prose: after removing {{#...}} directives,
code spans/fences, URLs and markup, at least 4 letter-words remain (this drops
directive-only, code-only, numeric and short table-cell entries); lines of code
listings (`///`, `//` doc comments, `# ` shell comments) count as code. 60 drawn.

Lab (lab-text/po/ru.po): UI/quiz/feedback sentences: first reference not in
book/data/*.json (metric labels), and the msgid, with {} placeholders and markup
removed, has at least 5 letter-words and ends in sentence punctuation or
contains a sentence break ('. ', '? ', ': '). 20 drawn.
Entries are ordered by their position in the file; random.sample picks indices.
"""
import random, re, polib, sys, os
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOK_FILES = {f"src/{n}.md" for n in "introduction why-pool bucket-rounding stale-data return-contract capacity cliff chunking size-specialized method glossary".split()}

def strip(s):
    s = re.sub(r"\{\{#.*?\}\}", " ", s, flags=re.S)
    s = re.sub(r"```.*?```", " ", s, flags=re.S)
    s = re.sub(r"`[^`]*`", " ", s)
    s = re.sub(r"\]\([^)]*\)", "]", s)
    s = re.sub(r"https?://\S+", " ", s)
    s = re.sub(r"<[^>]+>", " ", s)
    s = re.sub(r"\{[^}]*\}", " ", s)
    return s

def words(s):
    return re.findall(r"[A-Za-z]{2,}", strip(s))

def first_ref(e):
    return e.occurrences[0][0] if e.occurrences else ""

def is_code_comment(m):
    # lines of a code listing (doc comments `///`, `//`, shell `# `): code, not prose
    return bool(re.match(r"\s*(//|# )", m))

def book_ok(e):
    return first_ref(e) in BOOK_FILES and not is_code_comment(e.msgid) and len(words(e.msgid)) >= 4

def lab_ok(e):
    r = first_ref(e)
    if r.startswith("book/data/"):
        return False
    t = strip(e.msgid).strip()
    if len(words(e.msgid)) < 5:
        return False
    return bool(re.search(r"[.?!:)]$", t) or re.search(r"[.?:] ", t))

def entries(path, pred):
    po = polib.pofile(os.path.join(ROOT, path))
    return [e for e in po if e.msgid and not e.obsolete and pred(e)]

random.seed(38)
book = entries("book/po/ru.po", book_ok)
bs = sorted(random.sample(range(len(book)), 60))
lab = entries("lab-text/po/ru.po", lab_ok)
ls = sorted(random.sample(range(len(lab)), 20))
out = []
print(f"# book eligible {len(book)}, lab eligible {len(lab)}", file=sys.stderr)
for cat, pool, idx in (("book", book, bs), ("lab", lab, ls)):
    for i in idx:
        e = pool[i]
        out.append((cat, i, e.linenum, " ".join(f"{a}:{b}" for a, b in e.occurrences[:2]), e.msgid, e.msgstr or e.msgstr_plural.get(0, "") ))
if __name__ == "__main__":
    for n, (cat, i, ln, ref, mid, ms) in enumerate(out, 1):
        print(f"=== {n} {cat} idx={i} line={ln} {ref}\nEN: {mid}\nRU: {ms}\n")

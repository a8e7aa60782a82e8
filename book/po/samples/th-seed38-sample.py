#!/usr/bin/env python3
"""Fresh sample for issue #38 (th): 60 book prose entries + 20 lab UI/quiz/feedback sentences.

Reproducible: polib, file order, random.seed(38); the book pool is drawn first, then the lab pool,
from the same generator.
"""
import random, re, sys
import polib

ROOT = "/work/wt-thsample"
BOOK_FILES = {"src/" + f for f in (
    "introduction.md why-pool.md bucket-rounding.md stale-data.md return-contract.md capacity.md "
    "cliff.md chunking.md size-specialized.md method.md glossary.md").split()}

def first_ref(e):
    return e.occurrences[0][0] if e.occurrences else ""

def strip_markup(s):
    s = re.sub(r"\{\{#.*?\}\}", " ", s, flags=re.S)        # directives
    s = re.sub(r"```.*?```", " ", s, flags=re.S)          # fenced code
    s = re.sub(r"`[^`]*`", " ", s)                         # code spans
    s = re.sub(r"\]\([^)]*\)", "]", s)                     # link targets
    s = re.sub(r"<[^>]+>", " ", s)                         # html tags
    return s

def words(s):
    # words with at least one letter (numbers, units-only and symbols do not count)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", s)]

def book_prose(e):
    if e.obsolete or not e.msgid.strip():
        return False
    if first_ref(e) not in BOOK_FILES:
        return False
    body = strip_markup(e.msgid)
    if e.msgid.lstrip().startswith("///") or e.msgid.lstrip().startswith("//"):
        return False                                      # code comment lines in snippets
    return len(words(body)) > 3                           # skips directive-only, code-only, numbers, ≤3-word cells

LAB_UI = ("wasm-lab/src/",)
def lab_sentence(e):
    if e.obsolete or not e.msgid.strip():
        return False
    if not first_ref(e).startswith(LAB_UI):
        return False
    body = re.sub(r"\{[^}]*\}", " ", strip_markup(e.msgid))   # placeholders do not count as words
    w = words(body)
    # a sentence: at least 5 words, and either ends like a sentence or has a verb-bearing clause
    # (bare metric labels such as "bytes requested per round" are short noun phrases)
    if len(w) < 5:
        return False
    return bool(re.search(r"[.?!:;,)]\s*$|[.?!;:]\s", e.msgid)) or len(w) >= 7

def main():
    book = polib.pofile(f"{ROOT}/book/po/th.po", wrapwidth=79)
    lab = polib.pofile(f"{ROOT}/lab-text/po/th.po", wrapwidth=79)
    bpool = [(i, e) for i, e in enumerate(book) if book_prose(e)]
    lpool = [(i, e) for i, e in enumerate(lab) if lab_sentence(e)]
    random.seed(38)
    bs = sorted(random.sample(bpool, 60), key=lambda t: t[0])
    ls = sorted(random.sample(lpool, 20), key=lambda t: t[0])
    print(f"# book pool {len(bpool)} of {len(book)}; lab pool {len(lpool)} of {len(lab)}", file=sys.stderr)
    for cat, rows in (("book", bs), ("lab", ls)):
        for i, e in rows:
            ref = " ".join(f"{f}:{l}" for f, l in e.occurrences)
            print(f"=== {cat} #{i} {ref}")
            print("EN:", e.msgid)
            print("TH:", e.msgstr if e.msgstr else e.msgstr_plural)

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Two counts per chapter, from the Markdown sources (reproducible without a build).

    python3 scripts/prose-stats.py                 # the working tree
    python3 scripts/prose-stats.py --rev HEAD~5    # the chapters as they were at a commit

story words   reader-facing words before the first <details> or the practice box
              (`<div class="lab-practice">`), whichever comes first.
mechanism     the share of a chapter's reader-facing words (everything outside instructor
              notes and the quiz) that stand in sentences about the book's own machinery:
              a sentence counts whole when it contains one of MECHANISM below.

What counts as a word: code blocks are dropped; `{{#fig}}` and `{{#verdict}}` count as one word
(they print a number or a short verdict), `{{#fig-table}}`, `{{#chart}}`, `{{#claim}}`,
`{{#lab-widget}}` and `{{#lab-quiz}}` as none (a table, a chart, a mark, a mount point); HTML tags
and Markdown punctuation are stripped; a word is a run of letters or digits.
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

STORY = ["why-pool", "bucket-rounding", "stale-data", "return-contract", "capacity", "cliff",
         "chunking", "size-specialized", "method"]
OTHERS = ["introduction", "checklist"]

# Words about how the book is made rather than about pools and chunkers. Matched
# case-insensitively as whole words or phrases.
MECHANISM = [
    r"claims?", r"marks?", r"✓", r"⚠", r"noise gate", r"gate", r"not citable", r"citable",
    r"verdicts?", r"book/data", r"data files?", r"json", r"wasm modules?", r"modules?",
    r"harness", r"preprocessor", r"paired rounds?", r"suite", r"native-bench", r"cargo xtask",
    r"xtask", r"at build time", r"the book's build", r"strict build", r"wasm-bindgen",
    r"wasm-opt", r"opt-level", r"float formatter", r"linker", r"mount points?",
    r"bench(?:'s)?", r"machine file", r"primary machine", r"the machine the data comes from",
    r"the machine in the column", r"rerun", r"figure keys?",
]
MECH_RE = re.compile(r"(?<![\w-])(" + "|".join(MECHANISM) + r")(?![\w-])", re.IGNORECASE)
WORD_RE = re.compile(r"[\w\u0E00-\u0E7F]+(?:[.,'’][\w]+)*")


def source(name, rev):
    path = f"book/src/{name}.md"
    if rev is None:
        return Path(path).read_text()
    return subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True,
                          check=True).stdout


def plain(md):
    md = re.sub(r"```.*?```", " ", md, flags=re.S)
    md = re.sub(r"\{\{#(fig|verdict)\s[^}]*\}\}", " N ", md)
    md = re.sub(r"\{\{#[^}]*\}\}", " ", md)
    md = re.sub(r"<[^>]+>", " ", md)
    md = re.sub(r"\]\([^)]*\)", "]", md)
    md = re.sub(r"[*_`#|\[\]>]", " ", md)
    return md


def words(text):
    return len(WORD_RE.findall(text))


def story_part(md):
    cut = len(md)
    for marker in ("<details", '<div class="lab-practice">'):
        i = md.find(marker)
        if i != -1:
            cut = min(cut, i)
    return md[:cut]


def reader_part(md):
    md = re.sub(r'<details class="instructor-notes">.*?</details>', " ", md, flags=re.S)
    i = md.find("\n## Quiz")
    return md if i == -1 else md[:i]


def mechanism_share(md):
    text = plain(reader_part(md))
    total = mech = 0
    for sentence in re.split(r"(?<=[.!?:;])\s+|\n\s*\n|\n-\s", text):
        n = words(sentence)
        total += n
        if MECH_RE.search(sentence):
            mech += n
    return mech, total


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rev", help="a git revision to read the chapters from")
    args = p.parse_args()
    print(f"{'chapter':18} {'story words':>11} {'mechanism':>16}")
    for name in STORY + OTHERS:
        try:
            md = source(name, args.rev)
        except (subprocess.CalledProcessError, FileNotFoundError):
            continue
        story = words(plain(story_part(md)))
        mech, total = mechanism_share(md)
        share = 100 * mech / total if total else 0
        print(f"{name:18} {story:11} {mech:5}/{total:5} {share:4.1f} %")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""check_links: every relative link in the docs reaches a file, and its #anchor a heading.

    tests/docs/check_links.py --root SRC

Checks the Markdown links `[text](target)` of README.md and docs/*.md whose
target is not a URL: the file must exist (relative to the linking file), and
an `#anchor` must be the GitHub slug of one of the target's headings (or of
the linking file's own, for `(#anchor)`). Links inside code blocks and code
spans are not links and are skipped.
Exit codes: 0 every link resolves, 1 a link is broken, 2 usage.
"""
import argparse
import glob
import os
import re
import sys

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def slug(title):
    """GitHub's anchor for a heading: lower case, punctuation dropped but
    '-' and '_', spaces to '-' (markup characters go with the punctuation)."""
    s = title.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def strip_code(lines, spans=True):
    """The lines with fenced blocks blanked and (spans) code spans removed (line numbers kept)."""
    out, fenced = [], False
    for line in lines:
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else re.sub(r"`[^`]*`", "", line) if spans else line)
    return out


def anchors(path, cache):
    if path not in cache:
        seen, found = {}, set()
        with open(path) as f:
            # A heading's code span is part of its anchor (backticks dropped).
            for line in strip_code(f.read().split("\n"), spans=False):
                m = HEADING.match(line)
                if not m:
                    continue
                a = slug(m.group(2))
                n = seen.get(a, 0)
                seen[a] = n + 1
                found.add(a if n == 0 else f"{a}-{n}")
        cache[path] = found
    return cache[path]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True, help="the source tree (README.md, docs/)")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    docs = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    cache, broken, count = {}, [], 0
    for doc in docs:
        with open(doc) as f:
            raw = f.read().split("\n")
        for i, line in enumerate(strip_code(raw)):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # a URL (https:, mailto:)
                count += 1
                file, _, anchor = target.partition("#")
                path = os.path.normpath(os.path.join(os.path.dirname(doc), file)) if file else doc
                where = f"{os.path.relpath(doc, root)}:{i + 1}"
                if not os.path.exists(path):
                    broken.append(f"{where}: ({target}): no file {os.path.relpath(path, root)}")
                elif anchor and path.endswith(".md") and anchor not in anchors(path, cache):
                    broken.append(f"{where}: ({target}): no heading with anchor #{anchor} in "
                                  f"{os.path.relpath(path, root)}")
    for b in broken:
        print(b)
    print(f"check_links: {count} relative links in {len(docs)} files, {len(broken)} broken")
    if count == 0:
        print("check_links: no links found: the check checked nothing")
        return 1
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Every Markdown table renders as a table.

usage: check-tables.py FILE.md...

A table block is a run of lines that start with "|" outside code fences.
Each must parse (markdown-it-py, with GitHub's table extension) into one
table whose rows are the block's lines less the delimiter line: a blank
line or a malformed delimiter in the middle of a table, or a row that
breaks out of it, leaves some lines as text. Prints each table that does
not render, and exits 1 if there is one.
"""
import sys

from markdown_it import MarkdownIt


def table_blocks(lines):
    """(first line, line count) of each run of table lines outside fences."""
    blocks, start, fence = [], None, None
    for i, line in enumerate(lines + [""]):
        stripped = line.lstrip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
        elif fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        if fence is None and stripped.startswith("|"):
            start = i if start is None else start
        elif start is not None:
            blocks.append((start, i - start))
            start = None
    return blocks


def rendered_tables(text):
    """first line -> (last line + 1, rows) of each table markdown-it finds."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    tables, current = {}, None
    for tok in tokens:
        if tok.type == "table_open":
            current = tok.map[0]
            tables[current] = [tok.map[1], 0]
        elif tok.type == "tr_open" and current is not None:
            tables[current][1] += 1
        elif tok.type == "table_close":
            current = None
    return tables


def check(path):
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    tables = rendered_tables(text)
    bad = 0
    for first, count in table_blocks(lines):
        end, rows = tables.get(first, (None, 0))
        if end != first + count or rows != count - 1:
            print("%s:%d: a table of %d lines renders as %s" %
                  (path, first + 1, count, "%d rows" % rows if end else "text"))
            bad += 1
    return bad


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = sum(check(p) for p in paths)
    print("tables: %s in %d files" % ("%d do not render" % bad if bad else "all render", len(paths)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

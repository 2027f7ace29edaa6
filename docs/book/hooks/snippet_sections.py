"""Section includes for the book: `--8<-- "FILE:NAME"` inserts the lines of FILE between
`--8<-- [start:NAME]` and `--8<-- [end:NAME]` (the section syntax of pymdownx.snippets 9.7 and
later, provided here for the older pymdownx that distributions ship). Paths are looked up as
pymdownx.snippets does (docs/book, then the repository root); a missing file or section fails
the build. Whole-file includes (`--8<-- "FILE"`) are left to pymdownx.snippets."""

import os
import re

from mkdocs.exceptions import PluginError

INCLUDE = re.compile(r'^(?P<indent>[ \t]*)-{2,}8<-{2,}[ \t]+"(?P<path>[^"]+?):(?P<name>[A-Za-z0-9_.-]+)"[ \t]*$')
MARKER = re.compile(r'-{2,}8<-{2,}[ \t]+\[(?P<kind>start|end):(?P<name>[A-Za-z0-9_.-]+)\]')


def _section(path, name):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out, inside, found = [], False, False
    for line in lines:
        m = MARKER.search(line)
        if m:
            if m.group("name") == name:
                inside = m.group("kind") == "start"
                found = True
            continue  # marker lines of every section stay out of the page
        if inside:
            out.append(line)
    if not found or not out:
        raise PluginError(f"snippet section '{name}' not found in {path}")
    return out


def on_page_markdown(markdown, page, config, files):
    book = os.path.dirname(os.path.abspath(config.config_file_path))
    roots = [book, os.path.dirname(os.path.dirname(book))]
    result = []
    for line in markdown.split("\n"):
        m = INCLUDE.match(line)
        if not m:
            result.append(line)
            continue
        candidates = [os.path.join(r, m.group("path")) for r in roots]
        path = next((c for c in candidates if os.path.isfile(c)), None)
        if path is None:
            raise PluginError(f"{page.file.src_path}: snippet file {m.group('path')} not found")
        result.extend(m.group("indent") + l if l else l for l in _section(path, m.group("name")))
    return "\n".join(result)

"""The README is a guide that stays short and whose links lead somewhere: under 400 lines,
and every link to a file of the repository names a file, and a heading of it, that exist."""

import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README_LINES_MAX = 399
_LINK = re.compile(r"\]\(([^)#]*)(?:#([^)]*))?\)")


def _anchor(heading):
    """A Markdown heading's anchor as GitHub makes it."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path):
    with open(path, encoding="utf-8") as f:
        return {_anchor(line.lstrip("#")) for line in f if line.startswith("#")}


def _readme():
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        return f.read()


def test_the_readme_is_under_four_hundred_lines():
    lines = _readme().count("\n")
    assert lines <= README_LINES_MAX, "README.md has %d lines: move design notes to docs/" % lines


def test_every_local_link_of_the_readme_leads_to_a_file_and_heading():
    broken = []
    for target, anchor in _LINK.findall(_readme()):
        if target.startswith("http") or not target:
            continue
        path = os.path.join(REPO, target)
        if not os.path.exists(path):
            broken.append(target)
        elif anchor and path.endswith(".md") and anchor not in _anchors(path):
            broken.append("%s#%s" % (target, anchor))
    assert broken == []

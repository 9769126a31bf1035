"""Every section citation in the repository resolves inside the repository.

A citation is a section sign followed by a section number, e.g. ``docs/rules/escoba.md \u00a72.18``,
``docs/escoba_engine.md \u00a74b`` or ``docs/design.md \u00a75``. The checker reads every text file git
tracks, or would track (``*.py *.rs *.md *.pyi *.toml``), and reports each citation that

(a) names no document: outside a markdown file, the document's repository path must come right
    before the section sign (a citation that continues a list, as in ``\u00a72.21, \u00a72.22`` or
    ``\u00a72.10/\u00a72.11``, takes the document of the one before it); inside a markdown file a bare
    section sign refers to that same file. A document named by a word instead of its path
    (``rules \u00a72.18``, ``contract \u00a74b``, ``DESIGN \u00a75``) names none, in any file;
(b) names a path that does not exist in the repository;
(c) names a section number that is not a heading of that document (``## 2.``, ``### 2.18``,
    ``## 1a.``, ``## \u00a74b``); in a range or a list (``\u00a73.1\u20133.4``, ``\u00a7\u00a72.7, 2.8``) the first
    number must resolve.

No engine is needed: the test only reads files. (This file writes the section sign as an escape,
so that it holds no citation itself.)
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SECTION = "\u00a7"
EXTENSIONS = (".py", ".rs", ".md", ".pyi", ".toml")

# A section number: 2, 2.18, 1a, 4b, 7.5 (a letter suffix only when no other letter follows).
NUMBER = r"\d+(?:[a-z](?![a-z]))?(?:\.\d+)*"
# A citation: an optional document path (optionally in backticks), then one or two section signs
# and a number. A section sign without a number is reported too.
CITATION = re.compile(
    r"(?:(?P<doc>(?<![\w./-])[\w.-]+(?:/[\w.-]+)*\.md)`{0,2}\s+)?"
    + SECTION
    + "{1,2}"
    + r"(?:\s*(?P<number>"
    + NUMBER
    + "))?"
)
# What may stand between two citations of one list: "\u00a72.21, \u00a72.22", "\u00a72.10/\u00a72.11",
# "\u00a75 and \u00a77".
LIST_SEPARATOR = re.compile(r"(?:[\s,/&\u2013-]|\band\b|\bor\b)*")
# The old way of citing, by a word: "rules \u00a72.18", "Contract \u00a74b", "DESIGN \u00a75".
BY_WORD = re.compile(r"\b(?:rules|contract|design)(?:\.md)?`{0,2}\s+$", re.IGNORECASE)
HEADING = re.compile(r"#{1,6}[ \t]+(?:" + SECTION + r"\s*)?(" + NUMBER + r")\.?(?:\s|$)")


def repository_files() -> list[str]:
    """Repository paths of the text files to check: git's tracked and not-ignored files, or a walk
    of the tree (hidden folders and build output left out) where git is not available."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        paths = out.splitlines()
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for folder, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("target", "__pycache__")]
            for name in files:
                paths.append(Path(folder, name).relative_to(ROOT).as_posix())
    return sorted(p for p in paths if p.endswith(EXTENSIONS) and (ROOT / p).is_file())


def headings(text: str) -> set[str]:
    """The section numbers of a markdown document's headings (code blocks left out)."""
    found, fenced = set(), False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and (m := HEADING.match(line)):
            found.add(m.group(1))
    return found


def citation_problems(path: str, text: str, root: Path = ROOT) -> list[str]:
    """Every citation of ``text`` (the content of repository file ``path``) that does not resolve,
    as ``path:line: message``."""
    problems: list[str] = []
    cache: dict[str, set[str] | None] = {}

    def sections(doc: str) -> set[str] | None:
        if doc not in cache:
            if doc == path:
                cache[doc] = headings(text)
            else:
                file = root / doc
                cache[doc] = headings(file.read_text(encoding="utf-8")) if file.is_file() else None
        return cache[doc]

    markdown = path.endswith(".md")
    for lineno, line in enumerate(text.splitlines(), 1):
        previous_doc: str | None = None
        previous_end = -1
        for m in CITATION.finditer(line):
            where = f"{path}:{lineno}: {line[m.start() : m.end()].strip()!r}"
            doc = m.group("doc")
            if doc is None:
                if BY_WORD.search(line[: m.start()]):
                    problems.append(f"{where}: names its document by a word, not by its path")
                    previous_doc, previous_end = None, m.end()
                    continue
                if previous_doc is not None and LIST_SEPARATOR.fullmatch(line[previous_end : m.start()]):
                    doc = previous_doc
                elif markdown:
                    doc = path
                else:
                    problems.append(f"{where}: names no document (write its path, e.g. docs/design.md)")
            previous_doc, previous_end = doc, m.end()
            if doc is None:
                continue
            number = m.group("number")
            found = sections(doc)
            if found is None:
                problems.append(f"{where}: {doc} does not exist")
            elif number is None:
                problems.append(f"{where}: a section sign without a section number")
            elif number not in found:
                problems.append(f"{where}: {doc} has no heading numbered {number}")
    return problems


def test_every_citation_resolves():
    problems = []
    for path in repository_files():
        text = (ROOT / path).read_text(encoding="utf-8")
        if SECTION in text:
            problems.extend(citation_problems(path, text))
    assert not problems, f"{len(problems)} citations do not resolve:\n" + "\n".join(problems)


def test_the_checker_reports_bad_citations(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\n## 1. One\n\n### 1.2 Two\n\n## 4b. Four\n")
    s = SECTION
    code = (
        f"# fine: docs/guide.md {s}1.2, {s}4b and `docs/guide.md` {s}1\n"
        f"# no document: rules {s}2.18\n"
        f"# no such file: docs/rules/nothing.md {s}1\n"
        f"# no such heading: docs/guide.md {s}1.3; a list: docs/guide.md {s}1, {s}9\n"
        f"# bare: {s}1\n"
    )
    problems = citation_problems("python/example.py", code, tmp_path)
    assert [p.split(":")[1] for p in problems] == ["2", "3", "4", "4", "5"]
    assert "by a word" in problems[0]
    assert "does not exist" in problems[1]
    assert "no heading numbered 1.3" in problems[2] and "no heading numbered 9" in problems[3]
    assert "names no document" in problems[4]

    # in a markdown file a bare citation is a self-reference, checked against the file's own headings
    doc = f"# Notes\n\n## 2. Two\n\nSee {s}2, then {s}3; the contract {s}2.\n"
    problems = citation_problems("docs/notes.md", doc, tmp_path)
    assert len(problems) == 2 and "no heading numbered 3" in problems[0] and "by a word" in problems[1]

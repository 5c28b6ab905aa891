#!/usr/bin/env python3
"""Finishes the man page that swift-argument-parser's generate-manual plugin wrote.

    man-page.py GENERATED PDFEDIT > docs/pdfedit.1    (what `make man` runs)
    man-page.py --check PAGE PDFEDIT                  (ManPageTests: exit 1 when stale)

The plugin writes NAME, SYNOPSIS and DESCRIPTION from the commands' help, but
drops every non-ASCII character ("rotate… (each" becomes "rotate (each") and
writes paragraph breaks as empty lines, which mdoc warns about. This script
puts the characters back (as mdoc \\[uXXXX] escapes, taken from the help that
`pdfedit --experimental-dump-help` prints), turns empty lines into .Pp, replaces
the plugin's empty EXIT STATUS with docs/pdfedit.1.sections (SELECTIONS,
ENVIRONMENT, EXIT STATUS), points the help's "See man pdfedit" at those
sections, and records a digest of what the page is made from:
the help, that file and this script. `--check` recomputes the digest, so a help
text changed without `make man` fails the test, without running the plugin.
"""
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTIONS = os.path.join(ROOT, "docs", "pdfedit.1.sections")
DIGEST_PREFIX = '.\\" made from (sha256 of the help, docs/pdfedit.1.sections, scripts/man-page.py): '


def dump_help(binary):
    return subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True).stdout


def digest(help_json):
    hasher = hashlib.sha256()
    for part in (help_json, open(SECTIONS, "rb").read(), open(os.path.abspath(__file__), "rb").read()):
        hasher.update(hashlib.sha256(part).digest())
    return hasher.hexdigest()


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for element in value:
            yield from strings(element)
    elif isinstance(value, dict):
        for element in value.values():
            yield from strings(element)


def escape_forms(line):
    """The ways the plugin may have escaped a line: as text, or as a macro argument."""
    backslashed = line.replace("\\", "\\e")
    return [line, backslashed, backslashed.replace('"', "\\(dq")]


def restore_characters(page, help_json):
    """Puts back the non-ASCII characters the plugin dropped; fails naming a line it cannot place."""
    missing = []
    lines = {line for text in strings(json.loads(help_json)) for line in text.split("\n")}
    for line in sorted(lines, key=len, reverse=True):
        if line.isascii() or not line.strip():
            continue
        for form in escape_forms(line):
            dropped = "".join(c for c in form if c.isascii())
            restored = "".join(c if c.isascii() else "\\[u%04X]" % ord(c) for c in form)
            if dropped.strip() and dropped in page:
                page = page.replace(dropped, restored)
                break
            if restored in page:
                break
        else:
            missing.append(line)
    if missing:
        sys.exit("man-page.py: cannot place these help lines in the page:\n  " + "\n  ".join(missing))
    return page


# The root help sends a reader to the man page; inside the man page that sentence
# points at its own sections instead.
SELF_REFERENCE = "See man pdfedit for selections, environment variables and the full table."
IN_PAGE = "The SELECTIONS, ENVIRONMENT and EXIT STATUS sections below give selections, environment variables and the full table."


def finish(generated, help_json):
    page = restore_characters(generated, help_json)
    if SELF_REFERENCE not in page:
        sys.exit("man-page.py: the root help no longer says %r; update SELF_REFERENCE" % SELF_REFERENCE)
    page = page.replace(SELF_REFERENCE, IN_PAGE)
    lines = page.split("\n")
    while lines and lines[-1] == "":
        lines.pop()
    # The plugin ends with an empty EXIT STATUS (a bare heading, or one with the
    # generic `.Ex -std`); the sections file brings the real one.
    if lines and lines[-1] == ".Ex -std":
        lines.pop()
    if lines and lines[-1] == '.Sh "EXIT STATUS"':
        lines.pop()
    lines = [".Pp" if line == "" else line for line in lines]
    # Two paragraph marks in a row, or one before a list item or the end of a list, are redundant.
    cleaned = []
    for line in lines:
        if line == ".Pp" and cleaned and cleaned[-1] in (".Pp",):
            continue
        if line.startswith((".It", ".El", ".Sh", ".Bl")) and cleaned and cleaned[-1] == ".Pp":
            cleaned.pop()
        cleaned.append(line)
    cleaned.insert(1, DIGEST_PREFIX + digest(help_json))
    return "\n".join(cleaned) + "\n" + open(SECTIONS, encoding="ascii").read()


def main(arguments):
    if len(arguments) == 3 and arguments[0] == "--check":
        page, binary = arguments[1], arguments[2]
        expected = DIGEST_PREFIX + digest(dump_help(binary))
        with open(page, encoding="utf-8") as file:
            found = [line.rstrip("\n") for line in file if line.startswith(DIGEST_PREFIX)]
        if found != [expected]:
            sys.exit("man-page.py: %s is not made from the current help and sections; run `make man`" % page)
        return
    if len(arguments) != 2:
        sys.exit(__doc__)
    generated, binary = arguments
    with open(generated, encoding="utf-8") as file:
        sys.stdout.write(finish(file.read(), dump_help(binary)))


if __name__ == "__main__":
    main(sys.argv[1:])

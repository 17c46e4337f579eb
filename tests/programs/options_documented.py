#!/usr/bin/env python3
"""The options each program's --help prints are exactly those its table in docs/PROGRAMS.md lists.

    options_documented.py docs/PROGRAMS.md NAME=PATH...

docs/PROGRAMS.md has one section per program, headed "## NAME", with a table whose header is
"| option | what it does |"; the option names are taken from the table's first column. From
--help the names are taken from the option lines: lines indented by exactly two spaces that
start with "-" (CLI11's layout, which nwpio-wrf's usage text follows), up to the gap before the
description. Long (--name) and short (-x) names count. Every option missing on either side is
named; exit 1 if there is any.
"""
import re
import sys

import program_list

OPTION = re.compile(r"(?<![\w-])(--[A-Za-z0-9][A-Za-z0-9-]*|-[A-Za-z])(?![\w-])")
TABLE_HEADER = re.compile(r"^\|\s*option\s*\|\s*what it does\s*\|\s*$")


def help_options(text):
    """Option names of a --help text."""
    names = set()
    for line in text.splitlines():
        if not re.match(r"^  -", line):
            continue
        column = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]  # the names, not the description
        names.update(OPTION.findall(column))
    return names


def documented_options(markdown):
    """{section heading: option names of its table}; a section without the table maps to None."""
    sections, name, in_table = {}, None, False
    for line in markdown.splitlines():
        heading = re.match(r"^##\s+(.+?)\s*$", line)
        if heading:
            name, in_table = heading.group(1).replace("`", "").strip(), False
            sections[name] = None
            continue
        if name is None:
            continue
        if TABLE_HEADER.match(line) and sections[name] is None:
            sections[name], in_table = set(), True
        elif in_table and line.startswith("|"):
            cells = line.strip().strip("|").split("|")
            if not re.fullmatch(r"[\s:-]+", cells[0]):  # (the |---|---| line)
                sections[name].update(OPTION.findall(cells[0]))
        else:
            in_table = False
    return sections


def main():
    docs_path, programs = sys.argv[1], program_list.parse(sys.argv[2:])
    with open(docs_path, encoding="utf-8") as f:
        documented = documented_options(f.read())
    problems = []
    for name, command in programs:
        code, out, err = program_list.run(command, "--help")
        if code != 0:
            problems.append(f"{name} --help: exit code {code} ({err.strip()!r})")
            continue
        printed = help_options(out)
        if not printed:
            problems.append(f"{name} --help: no option lines found in:\n{out}")
            continue
        listed = documented.get(name)
        if listed is None:
            problems.append(f"{name}: {docs_path} has no section '## {name}' with a '| option | what it does |' table")
            continue
        for option in sorted(printed - listed):
            problems.append(f"{name}: {option} is in --help but not in its table in {docs_path}")
        for option in sorted(listed - printed):
            problems.append(f"{name}: {option} is in its table in {docs_path} but not in --help")
        print(f"{name}: {len(printed)} options in --help, {len(listed)} in the table")
    for problem in problems:
        print(f"FAIL: {problem}")
    if not problems:
        print(f"PASS: the options of {len(programs)} programs' --help are those {docs_path} lists")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

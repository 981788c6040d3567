"""A minimal reader for the gettext .po files makemessages writes (entries separated by blank lines)."""

import ast
import re
from dataclasses import dataclass, field

KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")$")


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str = ""
    msgctxt: str | None = None
    msgstr: dict = field(default_factory=dict)  # plural index (0 for singular) -> translation
    flags: set = field(default_factory=set)
    line: int = 0

    @property
    def translations(self):
        return [self.msgstr[index] for index in sorted(self.msgstr)]


def _parse_block(lines, first_line):
    entry, current = Entry(line=first_line), None
    for line in lines:
        if line.startswith("#~"):
            return None  # obsolete entry
        if line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",") if flag.strip()}
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            value = ast.literal_eval(line)
        else:
            match = KEYWORD.match(line)
            if not match:
                raise ValueError(f"line {first_line}: cannot read {line!r}")
            keyword, index, literal = match.groups()
            current = ("msgstr", int(index or 0)) if keyword.startswith("msgstr") else (keyword, None)
            value = ast.literal_eval(literal)
            if current[0] == "msgstr":
                entry.msgstr[current[1]] = ""
            else:
                setattr(entry, keyword, "")
        name, index = current
        if name == "msgstr":
            entry.msgstr[index] += value
        else:
            setattr(entry, name, getattr(entry, name) + value)
    return entry


def read_po(path):
    """Entries of `path` in file order; the header (empty msgid) and obsolete `#~` entries are left out."""
    entries, block, start = [], [], 0
    lines = path.read_text(encoding="utf-8").splitlines() + [""]
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        starts_entry = line.startswith(("#", "msgctxt ", "msgid "))
        if line and not (starts_entry and any(item.startswith("msgstr") for item in block)):
            if not block:
                start = number
            block.append(line)
            continue
        if block:
            entry = _parse_block(block, start)
            if entry is not None and entry.msgid:
                entries.append(entry)
            block = []
        if line:  # the first line of an entry that followed the previous one without a blank line
            block, start = [line], number
    return entries

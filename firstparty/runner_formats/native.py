"""Our own format (docs/first-party-runs.md): JSONL or CSV rows that already carry our columns."""

import codecs
import csv

import orjson
from django.utils.translation import gettext as _


def text_lines(stream):
    """(line number, text) of a binary stream, decoded line by line: a line that is not UTF-8 is that
    line's error (with the byte that cannot be read) and the lines after it are still read."""
    for number, line in enumerate(stream, start=1):
        if number == 1:
            line = line.removeprefix(codecs.BOM_UTF8)
        try:
            yield number, line.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield number, ValueError(_("not UTF-8 text (byte 0x%(byte)02X cannot be read); save the file as UTF-8 "
                                       "and import it again") % {"byte": line[exc.start]})


def json_lines(stream):
    """(line number, dict or Exception) of a JSONL stream; blank lines are passed over. Lines are parsed as
    bytes by orjson, several times faster than the json module on a million short lines (the import's
    largest cost per row); it reads UTF-8 only, as the format requires."""
    loads = orjson.loads
    for number, line in enumerate(stream, start=1):
        if number == 1:
            line = line.removeprefix(codecs.BOM_UTF8)
        try:
            row = loads(line)
        except orjson.JSONDecodeError as exc:
            if line.strip():
                yield number, _utf8_error(line) or exc
            continue
        yield number, row if row.__class__ is dict else ValueError(_("not a JSON object"))


def _utf8_error(line):
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return ValueError(_("not UTF-8 text (byte 0x%(byte)02X cannot be read); save the file as UTF-8 and "
                            "import it again") % {"byte": line[exc.start]})
    return None


def csv_rows(stream):
    undecodable = []  # a line that is not UTF-8 is reported, and read as empty so the records around it go on

    def lines():
        for number, line in text_lines(stream):
            if isinstance(line, Exception):
                undecodable.append((number, line))
                line = "\n"
            yield line

    reader = csv.DictReader(lines())
    number = 1
    try:
        for number, row in enumerate(reader, start=2):  # row 1 is the header
            while undecodable:
                yield undecodable.pop(0)
            yield number, {k: v for k, v in row.items() if v not in ("", None)} if None not in row else ValueError(
                _("more cells than header columns")
            )
    except csv.Error as exc:
        yield number + 1, ValueError(_("the CSV cannot be read: %(error)s") % {"error": exc})
    yield from undecodable


def read_jsonl(stream, options):
    return json_lines(stream)


def read_csv(stream, options):
    return csv_rows(stream)

"""Figures formatted the way the reference articles print them, per language.

The separators per language are a setting (NUMBER_FORMATS); the reference articles keep
"1,693.7" in Spanish too, so both languages default to the same separators.
"""

from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext as _

DASH = "—"
DEFAULT_FORMAT = {"thousands": ",", "decimal": "."}
CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}


def number_format(lang=None):
    lang = (lang or get_language() or "en")[:2]
    formats = getattr(settings, "NUMBER_FORMATS", {})
    return {**DEFAULT_FORMAT, **formats.get(lang, {})}


def quantize(value, decimals):
    value = Decimal(value)
    exponent = Decimal(1).scaleb(-decimals) if decimals > 0 else Decimal(1)
    return value.quantize(exponent, rounding=ROUND_HALF_UP)


# What a reader sees before a negative number: the minus sign, not the hyphen-minus ("−4 020 ms", not
# "-4020 ms"); a hyphen reads as a dash or a range and is narrower than the digits it stands beside.
# Machine-readable values (plain_number: <data value>, CSV and JSON numbers) keep ASCII "-".
MINUS = "\u2212"


def format_decimal(value, decimals, trim_zeros=False, lang=None, grouping=True):
    """1693.7 -> "1,693.7", -3.7 -> "−3.7" (MINUS); trim_zeros turns 98.60 into "98.6" and 87.00 into "87"."""
    value = quantize(value, decimals)
    text = f"{abs(value):f}"
    if trim_zeros and "." in text:
        text = text.rstrip("0").rstrip(".")
    whole, _dot, fraction = text.partition(".")
    fmt = number_format(lang)
    # `grouping` may name its own separator (a string) instead of the language's thousands separator.
    thousands = grouping if isinstance(grouping, str) else fmt["thousands"]
    if grouping and len(whole) > 3:
        groups = []
        while len(whole) > 3:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        groups.insert(0, whole)
        whole = thousands.join(groups)
    sign = MINUS if value < 0 else ""
    return sign + whole + (fmt["decimal"] + fraction if fraction else "")


def significant_decimals(value, significant):
    """How many decimals show `significant` figures of value (3.2272 -> 2, 10.49 -> 1, 150 -> 0)."""
    value = abs(Decimal(value))
    if value == 0:
        return significant - 1
    digits_before = value.adjusted() + 1
    decimals = max(significant - digits_before, 0)
    # Rounding can add a digit (9.996 -> 10.0): recompute on the rounded value.
    rounded = quantize(value, decimals)
    if rounded.adjusted() + 1 > digits_before:
        decimals = max(significant - (rounded.adjusted() + 1), 0)
    return decimals


def format_metric(metric, value, lang=None, suffix=True):
    """A metric value as a table cell shows it, "—" when not measured."""
    if value is None:
        return DASH
    decimals = significant_decimals(value, metric.significant) if metric.significant else metric.precision
    text = format_decimal(value, decimals, trim_zeros=metric.trim_zeros, lang=lang)
    return text + (metric.cell_suffix if suffix else "")


def printed_number(metric, value):
    """The number format_metric prints, as a Decimal (for downloads: "1,693.7 tok/s" -> 1693.7)."""
    if value is None:
        return None
    decimals = significant_decimals(value, metric.significant) if metric.significant else metric.precision
    number = quantize(value, decimals)
    return number.normalize() if metric.trim_zeros else number


def format_plain(metric, value, lang=None):
    """The value at the metric's display precision, with no unit."""
    if value is None:
        return DASH
    return format_decimal(value, metric.precision, trim_zeros=metric.trim_zeros, lang=lang)


def format_difference(metric, difference, lang=None):
    """Difference to the leader: "+50 ms", "0 ms", "−3.7 pp" (a real minus, MINUS), "0.0 pp"."""
    if difference is None:
        return DASH
    difference = Decimal(difference)
    if metric.diff_unit == "ms":
        ms = quantize(difference * 1000, 0)
        # Grouped like every other figure of the page's language ("+13,842 ms" beside "1,693.7 tok/s"):
        # a reader counts the digits at a glance, and one page never groups digits two ways.
        text = format_decimal(ms, 0, lang=lang)
        return (f"+{text}" if ms > 0 else text) + " ms"
    if metric.diff_unit == "pp":
        pp = quantize(difference, 1)
        text = format_decimal(pp, 1, lang=lang, grouping=False)
        return (f"+{text}" if pp > 0 else text) + " pp"
    text = format_decimal(difference, metric.precision, lang=lang)
    return f"+{text}" if difference > 0 else text


def difference_number(metric, difference):
    """(number, unit) that format_difference prints: -0.05 s with diff_unit "ms" -> (-50, "ms")."""
    difference = Decimal(difference)
    if metric.diff_unit == "ms":
        return quantize(difference * 1000, 0), "ms"
    if metric.diff_unit == "pp":
        return quantize(difference, 1), "pp"
    return quantize(difference, metric.precision), str(metric.unit)


def format_duration(seconds, lang=None, decimals=None, significant=None):
    """Seconds in the unit a reader expects: "331 ms" below a second, "1.74 seconds" above.

    `decimals` fixes the decimals of whichever unit is shown; else `significant` (a metric's) rounds the
    number as the metric's table cell does, so a sentence and the table beside it print the same figure
    ("10.5 seconds" and "10.5 s", not "10.49 seconds"); else 0 for ms, 2 for seconds.
    """
    if seconds is None:
        return DASH
    seconds = Decimal(seconds)
    shown = seconds * 1000 if seconds < 1 else seconds
    if decimals is None:
        decimals = significant_decimals(shown, significant) if significant else (0 if seconds < 1 else 2)
    if seconds < 1:
        return _("%(value)s ms") % {"value": format_decimal(shown, decimals, lang=lang)}
    return _("%(value)s seconds") % {"value": format_decimal(shown, decimals, lang=lang)}


def price_decimals(amount):
    """At least two decimals, up to three where the price needs them ($0.037, $0.17, $2.10)."""
    amount = Decimal(amount)
    for decimals in (2, 3):
        if quantize(amount, decimals) == amount.normalize():
            return decimals
    return 3


def format_money(amount, currency="USD", lang=None):
    if amount is None:
        return DASH
    symbol = CURRENCY_SYMBOLS.get(currency)
    text = format_decimal(amount, price_decimals(amount), lang=lang)
    return f"{symbol}{text}" if symbol else f"{text} {currency}"


def format_price_pair(price, lang=None):
    """'$2.10 / $6.60' (list input / output per 1M tokens)."""
    if price is None:
        return DASH
    first, second = price.input_per_m, price.output_per_m
    return f"{format_money(first, price.currency, lang)} / {format_money(second, price.currency, lang)}"


def plain_number(number):
    """A number for machines: a dot for decimals in every language, no grouping, no exponent and no
    trailing zeros ("283.4", never "283,400000" or "2.834E+2"); "" for None."""
    if number is None:
        return ""
    text = format(number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text

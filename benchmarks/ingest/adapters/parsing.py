"""Reading upstream JSON defensively: a missing key or a wrong type is a changed schema, named by its path."""

from decimal import Decimal, InvalidOperation
from fnmatch import fnmatchcase

from .errors import ImpossibleValue, SchemaChanged

MISSING = object()
PER_MILLION = Decimal(1_000_000)


def kind_of(value):
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false"}.get(
        type(value), "a number"
    )


def require(obj, key, where):
    if not isinstance(obj, dict):
        raise SchemaChanged(
            f"{where}: expected an object, found {kind_of(obj)} (the upstream format changed)"
        )
    if key not in obj:
        raise SchemaChanged(f"{where}: missing key “{key}” (the upstream format changed)")
    return obj[key]


def optional(obj, key, where, default=None):
    if not isinstance(obj, dict):
        raise SchemaChanged(
            f"{where}: expected an object, found {kind_of(obj)} (the upstream format changed)"
        )
    return obj.get(key, default)


def require_list(value, where):
    if not isinstance(value, list):
        raise SchemaChanged(f"{where}: expected a list, found {kind_of(value)} (the upstream format changed)")
    return value


def require_text(value, where):
    if not isinstance(value, str) or not value.strip():
        raise SchemaChanged(
            f"{where}: expected a non-empty string, found {kind_of(value)} (the upstream format changed)"
        )
    return value.strip()


def number(value, where):
    """A JSON number (or numeric string) as Decimal; null stays None (= not measured)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, Decimal, float, str)):
        raise SchemaChanged(
            f"{where}: expected a number or null, found {kind_of(value)} (the upstream format changed)"
        )
    try:
        result = Decimal(str(value).strip())
    except InvalidOperation:
        raise SchemaChanged(
            f"{where}: expected a number, found {value!r} (the upstream format changed)"
        ) from None
    if not result.is_finite():
        raise ImpossibleValue(f"{where}: {value!r} is not a finite number")
    return result


def per_token_to_per_million(value, where):
    """USD per token (often a string such as "0.0000014") to USD per 1M tokens."""
    amount = number(value, where)
    if amount is None:
        return None
    return (amount * PER_MILLION).quantize(Decimal("0.000001"))


def in_scope(identifier, patterns):
    """Does a row fall under the source's include patterns (shell-style, e.g. "together_ai/*")?"""
    if patterns is None:
        return True
    return any(fnmatchcase(identifier, pattern) for pattern in patterns)


def check_scope(params, keys=("include",)):
    """A source of an upstream that lists many models must name the rows it covers: a source writes only
    its own scope, so two sources of one upstream never write each other's figures (mappings belong to
    the upstream, not to a source). ["*"] says "every row" explicitly; nothing said is refused."""
    if any(params.get(key) for key in keys):
        return None
    named = " or ".join(f"“{key}”" for key in keys)
    return (
        f"Say which upstream rows this source covers with {named}, e.g. {{\"include\": [\"gpt-oss-120b*\"]}}, "
        "or {\"include\": [\"*\"]} for every row: a source writes only the rows in its own scope."
    )


def check_string_list(params, key):
    value = params.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        return f"“{key}” must be a list of strings."
    return None

"""Reading configuration from the environment, with one-line errors for bad values."""

import os

from django.core.exceptions import ImproperlyConfigured


def env_str(name, default=None, required=False):
    value = os.environ.get(name)
    if value in (None, ""):
        if required:
            raise ImproperlyConfigured(f"{name} is not set: export {name}=... before starting.")
        return default
    return value


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value in (None, ""):
        return default
    lowered = value.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean: use 1/0, true/false, yes/no or on/off.")


def env_list(name, default=()):
    value = os.environ.get(name)
    if value in (None, ""):
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int(name, default):
    value = os.environ.get(name)
    if value in (None, ""):
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None

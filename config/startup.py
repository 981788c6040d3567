"""Start-up checks that turn an unreachable backing service into one readable line."""

from django.db import connections
from django.db.utils import OperationalError


def require_database(alias="default"):
    settings_dict = connections[alias].settings_dict
    where = f"{settings_dict.get('HOST') or 'local socket'}:{settings_dict.get('PORT') or 'default port'}"
    try:
        connections[alias].ensure_connection()
    except OperationalError as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
        raise SystemExit(f"Cannot start: the database is unreachable at {where} ({reason}).") from None

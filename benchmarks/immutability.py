"""What history refuses: the errors raised when a published snapshot or its prices would change, and
the checksum that identifies a stored payload."""

import hashlib

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


def payload_checksum(raw_payload):
    """What Snapshot.checksum holds: the SHA-256 of the stored payload text, "" without one."""
    return hashlib.sha256(raw_payload.encode()).hexdigest() if raw_payload else ""


class ImmutableSnapshotError(ValidationError):
    def __init__(self, snapshot, fields):
        super().__init__(
            _("Snapshot %(pk)s is %(status)s and cannot be changed (%(fields)s); publish a correction instead.")
            % {"pk": snapshot.pk, "status": snapshot.status, "fields": ", ".join(fields)}
        )


class ImmutablePriceError(ValidationError):
    def __init__(self, snapshot):
        super().__init__(
            _(
                "This price belongs to snapshot #%(pk)s, which is %(status)s: it is history and cannot be "
                "changed here. Create a correction of that snapshot and change the price there."
            )
            % {"pk": snapshot.pk, "status": snapshot.get_status_display().lower()}
        )

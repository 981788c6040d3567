"""The failures an upstream run can end in (each with the kind the run list shows), and how a run
log names a URL."""

from urllib.parse import urlsplit


class RefreshError(Exception):
    """A run cannot go on; the message is what editors read in the run list."""

    kind = "error"


class UpstreamUnavailable(RefreshError):
    kind = "http"

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status  # the HTTP status that ended the request, when there was one


class MalformedPayload(RefreshError):
    kind = "malformed"


class SchemaChanged(RefreshError):
    kind = "schema"


class ImpossibleValue(RefreshError):
    kind = "value"


class ConfigurationError(RefreshError):
    kind = "configuration"


class PayloadTooLarge(RefreshError):
    kind = "size"


class DeadlineExceeded(RefreshError):
    kind = "deadline"


class RateLimitBudgetSpent(RefreshError):
    """The upstream's request budget would be spent: the run stops and waits for the reset."""

    kind = "rate_limit"

    def __init__(self, message, rate_limit=None):
        super().__init__(message)
        self.rate_limit = rate_limit


def describe(url):
    """Host and path only: query strings can carry parameters nobody needs in a run log."""
    parts = urlsplit(str(url))
    return f"{parts.netloc}{parts.path}"

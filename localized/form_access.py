"""Which fields of a translated model's edit form a user may change.

The rule is the editorial workflow's (editorial.permissions: translators change the Spanish fields
and nothing else); editorial.apps registers it here at start-up, so the page forms apply it without
importing the layer above them. Until then a form refuses to build: one built without the rule would
let a translator change everything.
"""

from django.core.exceptions import ImproperlyConfigured

_restriction = None


def use_field_restriction(restrict):
    """Register `restrict(form, user, include_formsets) -> names of the fields it disabled`."""
    global _restriction
    _restriction = restrict


def restrict_fields(form, user, include_formsets=True):
    if _restriction is None:
        raise ImproperlyConfigured("No field restriction registered: is `editorial` in INSTALLED_APPS?")
    return _restriction(form, user, include_formsets=include_formsets)

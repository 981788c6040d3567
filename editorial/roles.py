"""The editorial roles: who translates, who approves. Group names are data created by migration 0002."""

TRANSLATORS = "Translators"
EDITORS = "Editors"
SPANISH_REVIEW_WORKFLOW = "Spanish review"
SPANISH_REVIEW_TASK = "Editors approve Spanish"

# The language translators write; every other language's fields are read-only for them.
TRANSLATION_LANGUAGE = "es"


def _group_names(user):
    # Cached on the user object: the snippet form and the page hooks ask several times per request.
    names = getattr(user, "_editorial_group_names", None)
    if names is None:
        names = set(user.groups.values_list("name", flat=True)) if user.is_authenticated else set()
        user._editorial_group_names = names
    return names


def is_translator_only(user):
    """A Translators member who is not also an editor: may change Spanish text and nothing else."""
    if user is None or not user.is_active or user.is_superuser:
        return False
    names = _group_names(user)
    return TRANSLATORS in names and EDITORS not in names

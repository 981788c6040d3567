"""What a translator may change in an edit form: the Spanish translation fields, nothing else.

Snippet viewsets opt in by building their form on ``TranslatorRestrictedSnippetForm`` (editorial.forms)
or by calling ``restrict_to_translatable_fields(form, request.user)`` on a form they build themselves.
Disabled Django form fields ignore whatever the browser posts and keep the stored value, so the rule
holds even when someone edits the HTML.
"""

from django.utils.translation import gettext_lazy as _
from modeltranslation.translator import NotRegistered, translator

from .roles import TRANSLATION_LANGUAGE, is_translator_only

READ_ONLY_HELP = _("Translators can change only the Spanish fields.")


def translatable_field_names(model, language=TRANSLATION_LANGUAGE):
    """Names of the `<field>_<language>` columns modeltranslation added to `model` (empty if none)."""
    try:
        options = translator.get_options_for_model(model)
    except NotRegistered:
        return set()
    return {
        field.name for fields in options.all_fields.values() for field in fields if field.language == language
    }


def restrict_to_translatable_fields(form, user, include_formsets=True):
    """Disable every field of `form` except the Spanish translation fields when `user` is a translator.

    Returns the names of the fields it disabled (empty for editors, superusers and everyone else).
    Inline formsets (`form.formsets`, as Wagtail's InlinePanel builds them) are restricted the same way and
    cannot grow or shrink, unless include_formsets is off (page forms: Wagtail's InlinePanel needs its
    DELETE and id inputs, and the Spanish review catches any change there).
    """
    if not is_translator_only(user):
        return set()
    allowed = translatable_field_names(form._meta.model)
    disabled = set()
    for name, field in form.fields.items():
        if name in allowed:
            continue
        field.disabled = True
        field.help_text = f"{field.help_text} {READ_ONLY_HELP}".strip() if field.help_text else READ_ONLY_HELP
        disabled.add(name)
    for prefix, formset in (getattr(form, "formsets", {}) if include_formsets else {}).items():
        formset.can_delete = False
        formset.max_num = formset.initial_form_count()
        formset.validate_max = True
        for child in formset.forms:
            disabled |= {f"{prefix}-{name}" for name in restrict_to_translatable_fields(child, user)}
    return disabled

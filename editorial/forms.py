"""Base form for snippet edit views that translators may open."""

from wagtail.admin.forms import WagtailAdminModelForm

from .permissions import restrict_to_translatable_fields


class TranslatorRestrictedSnippetForm(WagtailAdminModelForm):
    """Use as ``base_form_class`` of a snippet's edit handler: translators get only the Spanish fields."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.translator_disabled_fields = restrict_to_translatable_fields(self, self.for_user)

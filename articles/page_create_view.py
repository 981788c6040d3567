"""Wagtail's "Add child page" view without autosave.

Wagtail 8 autosaves the create form in the background, and its first autosave creates the page: an
editor who typed a title and then closed the tab left a draft page nobody saved (listed in
Translation status as "NOT PUBLISHED · 4 missing"). A page exists once its editor saves it; from
then on, the edit view autosaves as Wagtail does.
"""

from wagtail.admin.views.pages.create import CreateView


class CreateWithoutAutosaveView(CreateView):
    def get_context_data(self, **kwargs):
        self.autosave_enabled = False
        return super().get_context_data(**kwargs)

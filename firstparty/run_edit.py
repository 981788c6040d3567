"""Editing a measurement run: allowed while it is a draft; afterwards the form is read-only.

A started or imported run's settings are history (what a page says about the run); saving is refused
here and by Run.clean, and the page shows the frozen settings the Methodology block prints.
"""

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from wagtail.admin.views.generic import EditView

from .admin_views import URLS
from .models import frozen_run_message
from .templatetags.firstparty_tags import run_parameter_lines


class RunEditView(EditView):
    frozen_template_name = "firstparty/run_edit_frozen.html"

    def get_template_names(self):
        if self.object.is_frozen:
            return [self.frozen_template_name]
        return super().get_template_names()

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        if self.object.is_frozen:
            for field in form.fields.values():
                field.disabled = True
        return form

    def post(self, request, *args, **kwargs):
        self.object = self.get_object()
        if self.object.is_frozen:
            messages.error(request, frozen_run_message())
            return redirect(self.get_edit_url())
        return super().post(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.object.is_frozen:
            context.update(frozen_message=frozen_run_message(), frozen_lines=run_parameter_lines(self.object),
                           progress_url=reverse(f"{URLS}:progress", args=[self.object.pk]))
        return context

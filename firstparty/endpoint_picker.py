"""A run's endpoints, picked from checkboxes grouped by model, with a search box and "all endpoints of
this model" (endpoint_picker.js). Without JavaScript it is a plain list of checkboxes under each model.

A run measures tens of endpoints out of hundreds: a Ctrl-click multi-select loses the selection on a
stray click and cannot be searched."""

from django import forms
from django.utils.translation import gettext_lazy as _

from benchmarks.models import Endpoint


def picker_queryset():
    return Endpoint.objects.select_related("provider", "model").order_by("model__name", "provider__name", "tier")


class EndpointPicker(forms.CheckboxSelectMultiple):
    template_name = "firstparty/widgets/endpoint_picker.html"

    class Media:
        js = ["firstparty/js/endpoint_picker.js"]
        css = {"all": ["firstparty/css/endpoint_picker.css"]}

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        models = {}
        for _group, options, _index in context["widget"]["optgroups"]:
            for option in options:
                endpoint = option["value"].instance
                option["label"] = endpoint.label
                option["search"] = " ".join(
                    filter(None, [endpoint.provider.name, endpoint.provider.full_name, endpoint.tier,
                                  endpoint.display_label, endpoint.model.name, endpoint.api_model_id])
                ).lower()
                models.setdefault(endpoint.model.name, []).append(option)
        context["widget"]["models"] = [{"name": name, "options": options} for name, options in models.items()]
        context["widget"]["search_label"] = _("Search endpoints (provider or model)")
        context["widget"]["all_label"] = _("All endpoints of this model")
        return context

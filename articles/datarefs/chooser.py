"""The modal the editor's "data reference" button opens: pick what the figure is, get a token."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail.admin.modal_workflow import render_modal_workflow

from benchmarks.models import Endpoint, LanguageModel, Source

from .editor import token
from .refs import ABOVE, COMPARE_CHOICES, COUNT, LEADER, PRICES, QUANTITY_CHOICES, RANK, SLOWEST, DataRef

SUBJECT_CHOICES = [
    ("endpoint", gettext_lazy("An endpoint (provider and tier serving a model)")),
    ("model", gettext_lazy("A model's best value among its endpoints")),
]


class EndpointField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.model.name} · {obj.label}"


class DatarefChooserForm(forms.Form):
    subject = forms.ChoiceField(
        label=gettext_lazy("Figure of"), choices=SUBJECT_CHOICES, initial="endpoint", widget=forms.RadioSelect
    )
    endpoint = EndpointField(
        label=gettext_lazy("Endpoint"),
        queryset=Endpoint.objects.select_related("provider", "model").order_by(
            "model__name", "provider__name", "tier"
        ),
        required=False,
    )
    model = forms.ModelChoiceField(
        label=gettext_lazy("Model"), queryset=LanguageModel.objects.all(), required=False
    )
    metric = forms.ChoiceField(label=gettext_lazy("Metric or price"), choices=QUANTITY_CHOICES)
    source = forms.ModelChoiceField(
        label=gettext_lazy("Source"),
        queryset=Source.objects.all(),
        required=False,
        empty_label=gettext_lazy("The newest value of any source"),
    )
    compare = forms.ChoiceField(label=gettext_lazy("Comparison"), choices=COMPARE_CHOICES, required=False)
    other = EndpointField(
        label=gettext_lazy("Compared with endpoint"),
        queryset=Endpoint.objects.select_related("provider", "model").order_by(
            "model__name", "provider__name", "tier"
        ),
        required=False,
        help_text=gettext_lazy("For “points above”: an endpoint of the same model."),
    )

    def clean(self):
        cleaned = super().clean()
        subject, endpoint, model = cleaned.get("subject"), cleaned.get("endpoint"), cleaned.get("model")
        compare, other, metric = cleaned.get("compare") or "", cleaned.get("other"), cleaned.get("metric")
        if subject == "endpoint" and endpoint is None:
            self.add_error("endpoint", _("Choose the endpoint whose figure this is."))
        if subject == "model" and model is None:
            self.add_error("model", _("Choose the model whose best figure this is."))
        if metric in PRICES and compare:
            self.add_error("compare", _("Prices are quoted as they are; choose no comparison."))
        if compare == RANK and subject != "endpoint":
            self.add_error("compare", _("A rank is an endpoint's: choose “An endpoint” above."))
        if compare in (COUNT, LEADER) and subject != "model":
            self.add_error("compare", _("Counts and leaders belong to a model: choose “A model's best value” above."))
        if compare == ABOVE:
            own_model = endpoint.model if subject == "endpoint" and endpoint else model
            if other is None:
                self.add_error("other", _("Choose the endpoint the figure is compared with."))
            elif own_model is not None and other.model_id != own_model.pk:
                self.add_error(
                    "other",
                    _("Compare with an endpoint of the same model (%(model)s).") % {"model": own_model},
                )
            elif subject == "endpoint" and endpoint is not None and other.pk == endpoint.pk:
                self.add_error("other", _("Compare with a different endpoint."))
        return cleaned

    def reference(self):
        data = self.cleaned_data
        endpoint = data["endpoint"] if data["subject"] == "endpoint" else None
        compare = data.get("compare") or ""
        return DataRef(
            model_id=endpoint.model_id if endpoint else data["model"].pk,
            metric=data["metric"],
            endpoint_id=endpoint.pk if endpoint else None,
            source_id=data["source"].pk if data.get("source") else None,
            compare=compare,
            other_id=data["other"].pk if compare == ABOVE and data.get("other") else None,
        )


def initial_from_query(params):
    """Pre-fill the form from an existing token's attributes (editing a reference)."""
    initial = {
        key: params[key]
        for key in ("model", "endpoint", "metric", "source", "compare", "other")
        if params.get(key)
    }
    if initial:
        initial["subject"] = "endpoint" if params.get("endpoint") else "model"
    return initial


def choose(request):
    if request.method == "POST":
        form = DatarefChooserForm(request.POST)
        if form.is_valid():
            ref = form.reference()
            text, label = token(ref)
            result = {"data": ref.as_attrs(), "text": text, "label": label}
            return render_modal_workflow(
                request, None, None, None, json_data={"step": "chosen", "result": result}
            )
    else:
        form = DatarefChooserForm(initial=initial_from_query(request.GET))
    return render_modal_workflow(
        request,
        "datarefs/chooser.html",
        None,
        {"form": form, "slowest": SLOWEST, "above": ABOVE},
        json_data={"step": "chooser"},
    )

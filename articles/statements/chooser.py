"""The modal the editor's "checked statement" button opens: a condition from a menu, joined by "and"."""

import json

from django import forms
from django.utils.translation import gettext_lazy
from wagtail.admin.modal_workflow import render_modal_workflow

from articles.datarefs.refs import QUANTITY_CHOICES
from benchmarks.models import Endpoint, LanguageModel, Source

from .conditions import (
    ABOVE,
    ALL,
    ANY,
    BELOW,
    CHEAPER,
    COMPARE,
    COUNT,
    EQ,
    EVERY_OTHER,
    EXACTLY,
    FASTER,
    GE,
    LE,
    LEADS,
    MEASURED,
    RANK,
    SLOWER,
    VALUE,
    Claim,
    Condition,
    Host,
    InvalidCondition,
)
from .describe import describe_claim

KIND_CHOICES = [
    (LEADS, gettext_lazy("X leads a metric on model(s)")),
    (RANK, gettext_lazy("X ranks N-th or better")),
    (COMPARE, gettext_lazy("X is faster / slower / cheaper than Y")),
    (COUNT, gettext_lazy("The number of hosts measured")),
    (VALUE, gettext_lazy("X's value is above / below a threshold")),
    (MEASURED, gettext_lazy("X is (not) measured on a model")),
]
QUANTIFIER_CHOICES = [
    (ALL, gettext_lazy("all of")), (ANY, gettext_lazy("any of")), (EXACTLY, gettext_lazy("exactly N of")),
]
RELATION_CHOICES = [
    ("", "—"),
    (FASTER, gettext_lazy("faster (better on the metric)")),
    (SLOWER, gettext_lazy("slower (worse on the metric)")),
    (CHEAPER, gettext_lazy("cheaper (a price)")),
    (EQ, "="), (GE, "≥"), (LE, "≤"),
    (ABOVE, gettext_lazy("above")), (BELOW, gettext_lazy("below")),
]


def host_choices():
    pairs = Endpoint.objects.order_by("provider__name", "tier").values_list("provider_id", "provider__name", "tier")
    seen = dict.fromkeys((pk, name, tier) for pk, name, tier in pairs)
    return [("", "—")] + [(str(Host(pk, tier)), f"{name} ({tier})" if tier else name) for pk, name, tier in seen]


class StatementChooserForm(forms.Form):
    existing = forms.CharField(required=False, widget=forms.HiddenInput)
    kind = forms.ChoiceField(label=gettext_lazy("Condition"), choices=KIND_CHOICES)
    host = forms.ChoiceField(label=gettext_lazy("X (host)"), required=False)
    metric = forms.ChoiceField(label=gettext_lazy("Metric or price"), choices=QUANTITY_CHOICES)
    models = forms.ModelMultipleChoiceField(label=gettext_lazy("Model(s)"), queryset=LanguageModel.objects.all())
    quantifier = forms.ChoiceField(label=gettext_lazy("On"), choices=QUANTIFIER_CHOICES, required=False)
    relation = forms.ChoiceField(label=gettext_lazy("Relation"), choices=RELATION_CHOICES, required=False)
    other = forms.ChoiceField(label=gettext_lazy("Y (compared host)"), required=False)
    n = forms.IntegerField(label=gettext_lazy("N"), required=False, min_value=0)
    factor = forms.DecimalField(label=gettext_lazy("By at least a factor of"), required=False, min_value=1)
    threshold = forms.DecimalField(label=gettext_lazy("Threshold"), required=False)
    negated = forms.BooleanField(label=gettext_lazy("Not: the condition must NOT hold"), required=False)
    source = forms.ModelChoiceField(
        label=gettext_lazy("Source"), queryset=Source.objects.all(), required=False,
        empty_label=gettext_lazy("The newest value of any source"),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        hosts = host_choices()
        self.fields["host"].choices = hosts
        # Y may be whoever else is measured when the page renders (a host a refresh adds included).
        self.fields["other"].choices = [hosts[0], (EVERY_OTHER, gettext_lazy("every other host measured")), *hosts[1:]]

    def clean(self):
        cleaned = super().clean()
        try:
            existing = Claim.parse(cleaned["existing"]).conditions if cleaned.get("existing") else ()
        except InvalidCondition:
            existing = ()
        if self.errors:
            return cleaned
        try:
            condition = Condition(
                kind=cleaned["kind"],
                metric=cleaned["metric"],
                models=tuple(m.pk for m in cleaned["models"]),
                host=Host.parse(cleaned["host"]) if cleaned.get("host") else None,
                other=Host.parse(cleaned["other"]) if cleaned.get("other") else None,
                quantifier=cleaned.get("quantifier") or ALL,
                n=cleaned.get("n"),
                relation=cleaned.get("relation") or "",
                factor=cleaned.get("factor"),
                threshold=cleaned.get("threshold"),
                negated=bool(cleaned.get("negated")),
                source_id=cleaned["source"].pk if cleaned.get("source") else None,
            )
            condition.validate()
        except InvalidCondition as error:
            raise forms.ValidationError(str(error)) from None
        cleaned["claim"] = Claim(tuple(existing) + (condition,))
        return cleaned


def choose(request):
    if request.method == "POST":
        form = StatementChooserForm(request.POST)
        if form.is_valid():
            claim = form.cleaned_data["claim"]
            if request.POST.get("another"):
                form = StatementChooserForm(initial={"existing": claim.serialize()})
            else:
                result = {"data": {"cond": claim.serialize()}, "label": describe_claim(claim)}
                return render_modal_workflow(
                    request, None, None, None, json_data={"step": "chosen", "result": result}
                )
    else:
        form = StatementChooserForm(initial={"existing": request.GET.get("cond", "")})
    existing = form["existing"].value() or ""
    try:
        so_far = describe_claim(Claim.parse(existing)) if existing else ""
    except InvalidCondition:
        so_far = ""
    return render_modal_workflow(
        request,
        "statements/chooser.html",
        None,
        {"form": form, "so_far": so_far, "existing": json.dumps(existing)},
        json_data={"step": "chooser"},
    )


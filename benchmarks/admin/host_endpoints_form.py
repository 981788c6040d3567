"""The form behind "Add a host's endpoints": one provider (picked or new) × several models × tiers.

Only checking happens here; `host_endpoints.create_endpoints` writes, all at once or not at all.
"""

import re

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from ..models import Endpoint, LanguageModel, Provider

TIER_MAX = Endpoint._meta.get_field("tier").max_length
API_ID_MAX = Endpoint._meta.get_field("api_model_id").max_length
MODEL_PLACEHOLDER = "{model}"


def split_tiers(text):
    """"Fast, Turbo" or one per line → ["Fast", "Turbo"], first spelling kept, repeats dropped."""
    seen, tiers = set(), []
    for tier in re.split(r"[,\n]", text or ""):
        tier = " ".join(tier.split())
        if tier and tier.casefold() not in seen:
            seen.add(tier.casefold())
            tiers.append(tier)
    return tiers


class HostEndpointsForm(forms.Form):
    provider = forms.ModelChoiceField(
        label=_("Provider"),
        queryset=Provider.objects.order_by(Lower("name")),
        required=False,
        empty_label=_("— a new provider (fill in below) —"),
        help_text=_("Pick the host, or leave this empty and name a new provider below."),
    )
    new_provider_name = forms.CharField(
        label=_("New provider's name"),
        required=False,
        max_length=Provider._meta.get_field("name").max_length,
        help_text=_("Short name, e.g. “Fireworks”."),
    )
    new_provider_slug = forms.CharField(
        label=_("New provider's slug"),
        required=False,
        max_length=Provider._meta.get_field("slug").max_length,
        help_text=_("Used in import files; made from the name when left empty."),
    )
    new_provider_kind = forms.ChoiceField(
        label=_("New provider's kind"), choices=Provider.Kind.choices, initial=Provider.Kind.INFERENCE_HOST
    )
    new_provider_website = forms.URLField(label=_("New provider's website"), required=False, assume_scheme="https")
    models = forms.ModelMultipleChoiceField(
        label=_("Models"),
        queryset=LanguageModel.objects.order_by(Lower("name")),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Tick at least one model.")},
    )
    standard_tier = forms.BooleanField(
        label=_("Standard tier"), required=False, initial=True,
        help_text=_("The provider's ordinary offer of each model (an endpoint with an empty tier)."),
    )
    other_tiers = forms.CharField(
        label=_("Other tiers"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Premium or other SKUs, e.g. “Fast”; separate them with commas or new lines."),
    )
    deployment = forms.ChoiceField(
        label=_("Deployment"), choices=Endpoint.Deployment.choices, initial=Endpoint.Deployment.SERVERLESS
    )
    api_model_id = forms.CharField(
        label=_("API model identifier"),
        required=False,
        max_length=API_ID_MAX,
        help_text=_(
            "Optional. {model} stands for each model's slug, e.g. “accounts/fireworks/models/{model}”; "
            "edit single endpoints afterwards where the provider names a model differently."
        ),
    )
    api_docs_url = forms.URLField(label=_("API docs URL"), required=False, assume_scheme="https")

    def __init__(self, *args, can_add_provider=True, **kwargs):
        super().__init__(*args, **kwargs)
        self.can_add_provider = can_add_provider

    def clean_new_provider_slug(self):
        slug = self.cleaned_data["new_provider_slug"].strip()
        if slug:
            validate_slug(slug)
        return slug

    def clean_other_tiers(self):
        tiers = split_tiers(self.cleaned_data["other_tiers"])
        for tier in tiers:
            if len(tier) > TIER_MAX:
                raise ValidationError(
                    _("The tier “%(tier)s” is longer than %(max)s characters."), params={"tier": tier, "max": TIER_MAX}
                )
            if tier.casefold() == "standard":
                raise ValidationError(_("Tick “Standard tier” instead of writing “%(tier)s”."), params={"tier": tier})
        return tiers

    def clean(self):
        cleaned = super().clean()
        self._clean_provider(cleaned)
        tiers = ([""] if cleaned.get("standard_tier") else []) + cleaned.get("other_tiers", [])
        if not tiers and "other_tiers" not in self.errors:
            self.add_error("standard_tier", _("Tick the standard tier or name at least one other tier."))
        cleaned["tiers"] = tiers
        pattern = cleaned.get("api_model_id") or ""
        for model in cleaned.get("models") or ():
            if len(pattern.replace(MODEL_PLACEHOLDER, model.slug)) > API_ID_MAX:
                self.add_error(
                    "api_model_id",
                    _("For %(model)s the identifier would be longer than %(max)s characters.")
                    % {"model": model.name, "max": API_ID_MAX},
                )
                break
        return cleaned

    def _clean_provider(self, cleaned):
        provider, name = cleaned.get("provider"), (cleaned.get("new_provider_name") or "").strip()
        if provider is not None:
            if name:
                self.add_error(
                    "new_provider_name", _("Either pick a provider or name a new one, not both.")
                )
            return
        if not name:
            if "provider" not in self.errors:
                self.add_error("provider", _("Pick a provider or name a new one."))
            return
        if not self.can_add_provider:
            self.add_error("new_provider_name", _("You may not add providers; pick an existing one."))
            return
        slug = cleaned.get("new_provider_slug") or slugify(name)
        if not slug:
            self.add_error("new_provider_slug", _("Give the new provider a slug (letters, digits, hyphens)."))
            return
        clash = Provider.objects.filter(Q(name__iexact=name) | Q(slug__iexact=slug)).first()
        if clash is not None:
            field = "new_provider_name" if clash.name.lower() == name.lower() else "new_provider_slug"
            self.add_error(
                field,
                _("The provider “%(name)s” (slug “%(slug)s”) already exists; pick it above.")
                % {"name": clash.name, "slug": clash.slug},
            )
            return
        cleaned["new_provider"] = Provider(
            name=name,
            slug=slug,
            kind=cleaned.get("new_provider_kind") or Provider.Kind.INFERENCE_HOST,
            website=cleaned.get("new_provider_website") or "",
        )

    def api_model_id_for(self, model):
        return (self.cleaned_data.get("api_model_id") or "").replace(MODEL_PLACEHOLDER, model.slug)

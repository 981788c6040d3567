""""Add a host's endpoints": every provider × model × tier endpoint of a new host from one form,
instead of one endpoint form (with two chooser pop-ups) per combination."""

import uuid
from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.generic import FormView
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.models import ModelLogEntry

from ..cache import invalidate_after_commit
from ..models import Endpoint, Provider
from .host_endpoints_form import HostEndpointsForm

ADD_ENDPOINT = "benchmarks.add_endpoint"
ADD_PROVIDER = "benchmarks.add_provider"


@dataclass
class HostEndpoints:
    provider: Provider
    provider_created: bool = False
    created: list = field(default_factory=list)
    existing: list = field(default_factory=list)


class EndpointsChangedMeanwhile(Exception):
    """Someone else created one of the endpoints between our check and our write."""


def create_endpoints(form, user):
    """Create the provider (if new) and every missing endpoint in one transaction.

    Existing combinations, matched on the tier without regard to case as the importers match it,
    are reported rather than duplicated.
    """
    data = form.cleaned_data
    models, tiers = sorted(data["models"], key=lambda m: m.name.casefold()), data["tiers"]
    try:
        with transaction.atomic():
            result = _write(form, data, models, tiers, user)
    except IntegrityError as error:  # a unique name, slug or combination taken since the check
        raise EndpointsChangedMeanwhile from error
    return result


def _write(form, data, models, tiers, user):
    provider = data.get("provider") or data["new_provider"]
    result = HostEndpoints(provider=provider, provider_created=provider.pk is None)
    existing = {}
    if result.provider_created:
        provider.save()
    else:
        existing = {
            (e.model_id, e.tier.casefold()): e
            for e in Endpoint.objects.filter(provider=provider, model__in=models).select_related("model")
        }
    for model in models:
        for tier in tiers:
            found = existing.get((model.pk, tier.casefold()))
            if found is not None:
                found.provider = provider
                result.existing.append(found)
                continue
            result.created.append(
                Endpoint(
                    provider=provider, model=model, tier=tier, deployment=data["deployment"],
                    api_model_id=form.api_model_id_for(model), api_docs_url=data.get("api_docs_url") or "",
                )
            )
    Endpoint.objects.bulk_create(result.created)
    log_creation(([provider] if result.provider_created else []) + result.created, user)
    if result.created or result.provider_created:
        invalidate_after_commit()
    return result


def log_creation(instances, user):
    """The "created" entries the snippet forms would have written, in one query. Each gets its own
    uuid: an object's history shows only the newest entry of a uuid, whatever object it is about."""
    now = timezone.now()
    ModelLogEntry.objects.bulk_create(
        ModelLogEntry(
            content_type=ContentType.objects.get_for_model(instance, for_concrete_model=False),
            label=str(instance)[:255], action="wagtail.create", object_id=str(instance.pk),
            user=user, uuid=uuid.uuid4(), timestamp=now, content_changed=True,
        )
        for instance in instances
    )


def endpoint_names(endpoints):
    return ", ".join(str(endpoint) for endpoint in endpoints)


class HostEndpointsView(WagtailAdminTemplateMixin, FormView):
    template_name = "benchmarks/admin/host_endpoints.html"
    form_class = HostEndpointsForm
    page_title = gettext_lazy("Add a host's endpoints")
    header_icon = "link"

    def dispatch(self, request, *args, **kwargs):
        if not request.user.has_perm(ADD_ENDPOINT):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "can_add_provider": self.request.user.has_perm(ADD_PROVIDER)}

    def get_initial(self):
        provider = self.request.GET.get("provider", "")
        return {"provider": provider} if provider.isdigit() else {}

    def get_breadcrumbs_items(self):
        listing = reverse(Endpoint.snippet_viewset.get_url_name("list"))
        return self.breadcrumbs_items + [
            {"url": listing, "label": Endpoint._meta.verbose_name_plural.capitalize()},
            {"url": "", "label": self.get_page_title()},
        ]

    def form_valid(self, form):
        try:
            result = create_endpoints(form, self.request.user)
        except EndpointsChangedMeanwhile:
            form.add_error(
                None,
                _(
                    "Someone created this provider or some of these endpoints meanwhile; nothing was written. "
                    "Submit the form again."
                ),
            )
            return self.form_invalid(form)
        self.report(result)
        listing = reverse(Endpoint.snippet_viewset.get_url_name("list"))
        return redirect(f"{listing}?provider={result.provider.pk}")

    def report(self, result):
        if result.provider_created:
            messages.success(self.request, _("Provider “%(name)s” created.") % {"name": result.provider.name})
        if result.created:
            messages.success(
                self.request,
                ngettext(
                    "%(count)s endpoint created: %(names)s.",
                    "%(count)s endpoints created: %(names)s.",
                    len(result.created),
                )
                % {"count": len(result.created), "names": endpoint_names(result.created)},
            )
        if result.existing:
            messages.warning(
                self.request,
                ngettext(
                    "%(count)s endpoint already existed and was left as it was: %(names)s.",
                    "%(count)s endpoints already existed and were left as they were: %(names)s.",
                    len(result.existing),
                )
                % {"count": len(result.existing), "names": endpoint_names(result.existing)},
            )
        if not result.created:
            messages.info(self.request, _("No endpoint was created."))

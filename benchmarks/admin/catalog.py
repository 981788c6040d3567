"""Providers, models, endpoints and sources: the catalogue editors choose from."""

from django.urls import path, reverse
from django.utils.functional import cached_property
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from wagtail.admin.panels import FieldPanel, FieldRowPanel, ObjectList, Panel
from wagtail.admin.ui.tables import BooleanColumn, Column, DateColumn
from wagtail.admin.widgets.button import HeaderButton
from wagtail.snippets.views.snippets import IndexView, SnippetViewSet

from ..models import Endpoint, LanguageModel, Provider, Source

# --- providers, models, endpoints, sources ----------------------------------------------------
from .choosers import SpanishOptionalForm, chooser_viewset_class, translated_row
from .host_endpoints import ADD_ENDPOINT, HostEndpointsView
from .source_title import ReaderTitlePanel, SourceForm


class ProviderViewSet(SnippetViewSet):
    model = Provider
    icon = "site"
    menu_label = _("Providers")
    list_display = ["name", "slug", "kind", "website"]
    list_filter = ["kind"]
    search_fields = ["name", "full_name", "slug", "description_en", "description_es"]
    ordering = ["name"]
    chooser_viewset_class = chooser_viewset_class(["name", "full_name", "slug"], ordering=["name"])
    edit_handler = ObjectList(
        [
            FieldRowPanel([FieldPanel("name"), FieldPanel("full_name")]),
            FieldRowPanel([FieldPanel("slug"), FieldPanel("kind")]),
            FieldPanel("website"),
            translated_row("description", _("One-line description")),
        ],
        base_form_class=SpanishOptionalForm,
    )


class LanguageModelViewSet(SnippetViewSet):
    model = LanguageModel
    icon = "pick"
    menu_label = _("Language models")
    list_display = ["name", "slug", "creator", "open_weights", "benchmark_effort", "is_baseline"]
    list_filter = ["open_weights", "is_baseline"]
    search_fields = ["name", "slug", "creator", "benchmark_effort"]
    ordering = ["name"]
    chooser_viewset_class = chooser_viewset_class(["name", "slug", "creator"], ordering=["name"])
    panels = [
        FieldRowPanel([FieldPanel("name"), FieldPanel("slug")]),
        FieldPanel("creator"),
        FieldRowPanel([FieldPanel("open_weights"), FieldPanel("is_baseline")]),
        FieldPanel("benchmark_effort"),
    ]


class EndpointIndexView(IndexView):
    @cached_property
    def header_buttons(self):
        buttons = list(super().header_buttons)
        if self.request.user.has_perm(ADD_ENDPOINT):
            url = reverse(Endpoint.snippet_viewset.get_url_name("add_host"))
            provider = self.request.GET.get("provider", "")
            if provider.isdigit():  # the listing shows one host: its form starts with that host picked
                url += f"?provider={provider}"
            buttons.append(
                HeaderButton(
                    _("Add a host's endpoints"),
                    url=url,
                    icon_name="link",
                    priority=20,
                )
            )
        return buttons


class EndpointViewSet(SnippetViewSet):
    model = Endpoint
    icon = "link"
    menu_label = _("Endpoints")
    index_view_class = EndpointIndexView
    list_display = ["__str__", "provider", "model", "tier", "deployment", "api_model_id"]
    list_filter = ["provider", "model", "deployment"]
    search_fields = ["provider__name", "provider__slug", "model__name", "model__slug", "tier", "api_model_id"]
    ordering = ["model__name", "provider__name", "tier"]
    # The chooser reads as its labels do, "Provider (tier) · Model": by provider, then model, then tier.
    chooser_viewset_class = chooser_viewset_class(
        ["provider__name", "provider__full_name", "provider__slug", "model__name", "model__slug", "tier",
         "api_model_id"],
        select_related=("provider", "model"),
        ordering=["provider__name", "model__name", "tier"],
    )
    edit_handler = ObjectList(
        [
            FieldRowPanel([FieldPanel("provider"), FieldPanel("model"), FieldPanel("tier")]),
            translated_row("display_label", _("Display label")),
            FieldPanel("api_model_id"),
            FieldPanel("api_docs_url"),
            FieldPanel("deployment"),
        ],
        base_form_class=SpanishOptionalForm,
    )

    def get_queryset(self, request):
        return Endpoint.objects.select_related("provider", "model")

    def get_urlpatterns(self):
        return super().get_urlpatterns() + [path("add-host/", HostEndpointsView.as_view(), name="add_host")]


LICENCE_FORBIDS = _(
    "The licence of this source does not allow publication: its figures must not appear on published pages "
    "until the terms change (for example, a redistribution contract)."
)


def licence_text(source):
    return "" if source.licence_allows_publication else gettext("Licence does not allow publication")


class LicenceWarningPanel(Panel):
    """A warning at the top of a source whose licence does not let the pages publish its data."""

    class BoundPanel(Panel.BoundPanel):
        def is_shown(self):
            return (
                self.instance is not None
                and self.instance.pk
                and not self.instance.licence_allows_publication
            )

        def render_html(self, parent_context=None):
            return format_html(
                '<div class="help-block help-warning" role="alert"><p>{}</p></div>', LICENCE_FORBIDS
            )


class SourceViewSet(SnippetViewSet):
    model = Source
    icon = "doc-full"
    menu_label = _("Sources")
    list_display = [
        "__str__",
        "publisher",
        "kind",
        DateColumn("accessed_on", label=_("date accessed"), sort_key="accessed_on"),
        Column("licence_warning", label=_("Licence"), accessor=licence_text),
        BooleanColumn("is_demo", label=_("demo data")),
    ]
    list_filter = ["kind", "auto_publish", "is_demo"]
    search_fields = ["title_en", "title_es", "publisher", "url"]
    ordering = ["publisher", "title_en"]
    chooser_viewset_class = chooser_viewset_class(
        ["title_en", "title_es", "publisher", "url"], ordering=["publisher", "title_en"]
    )
    edit_handler = ObjectList(
        [
            LicenceWarningPanel(),
            translated_row("title", _("Title")),
            FieldRowPanel([FieldPanel("publisher"), FieldPanel("kind")]),
            ReaderTitlePanel(),
            FieldPanel("url"),
            FieldRowPanel([FieldPanel("licence"), FieldPanel("accessed_on")]),
            FieldPanel("licence_url"),
            FieldPanel("licence_allows_publication"),
            translated_row("attribution", _("Required attribution")),
            FieldRowPanel([FieldPanel("auto_publish"), FieldPanel("is_demo")]),
        ],
        base_form_class=SourceForm,
    )

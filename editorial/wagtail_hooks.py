"""Admin wiring: the translation status view and the limits of the Translators role on pages."""

from django.core.exceptions import PermissionDenied
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _
from wagtail import hooks
from wagtail.admin.menu import MenuItem
from wagtail.models import Page

from . import copy_buttons
from .roles import is_translator_only
from .views import TranslationStatusView
from .workspace_panel import TranslationsAwaitingReviewPanel
from .workspace_views import TRANSLATE_PERMISSION, PreviewView, ReviewView, WorkspaceView

copy_buttons.remove()

OBJECT = "translate/<str:app_label>/<str:model_name>/<int:pk>/"


@hooks.register("register_admin_urls")
def translation_status_urls():
    return [
        path("translation-status/", TranslationStatusView.as_view(), name="editorial_translation_status"),
        path(OBJECT, WorkspaceView.as_view(), name="editorial_workspace"),
        path(f"{OBJECT}review/", ReviewView.as_view(), name="editorial_workspace_review"),
        path(f"{OBJECT}preview/", PreviewView.as_view(), name="editorial_workspace_preview"),
    ]


@hooks.register("construct_homepage_panels")
def translations_awaiting_review(request, panels):
    panels.append(TranslationsAwaitingReviewPanel(request))


class TranslationStatusMenuItem(MenuItem):
    # Translators and editors: the status view is where a translator starts.
    def is_shown(self, request):
        return request.user.has_perm(TRANSLATE_PERMISSION)


@hooks.register("register_admin_menu_item")
def translation_status_menu_item():
    return TranslationStatusMenuItem(
        _("Translation status"), reverse("editorial_translation_status"), icon_name="doc-full", order=250
    )


# Wagtail lets anyone with "change" on a page delete it while it is an unpublished leaf;
# translators must never remove pages, published or not.
@hooks.register("before_delete_page")
def translators_cannot_delete_pages(request, page):
    if is_translator_only(request.user):
        raise PermissionDenied(_("Translators cannot delete pages."))


@hooks.register("before_bulk_action")
def translators_cannot_bulk_delete_pages(request, action_type, objects, action_class_instance):
    if action_type == "delete" and is_translator_only(request.user):
        if any(isinstance(obj, Page) for obj in objects):
            raise PermissionDenied(_("Translators cannot delete pages."))


def _translate_button(model, pk, user, priority):
    from django.urls import reverse as url_for
    from wagtail.admin.widgets.button import Button

    from .spanish import SpanishFromMemoryMixin

    if model is None or not issubclass(model, SpanishFromMemoryMixin) or not user.has_perm(TRANSLATE_PERMISSION):
        return None
    url = url_for("editorial_workspace", args=[model._meta.app_label, model._meta.model_name, pk])
    return Button(_("Translate into Spanish"), url, icon_name="doc-full", priority=priority, attrs={"data-translate": "1"})


# The workspace is reached from wherever an editor or translator meets a page or a provider/source.
@hooks.register("register_page_listing_more_buttons")
def page_translate_button(page, user, next_url=None):
    button = _translate_button(page.specific_class, page.pk, user, priority=3)
    if button is not None:
        yield button


@hooks.register("register_page_header_buttons")
def page_header_translate_button(page, user, view_name, next_url=None):
    button = _translate_button(page.specific_class, page.pk, user, priority=12)
    if button is not None:
        yield button


@hooks.register("register_snippet_listing_buttons")
def snippet_translate_button(instance, user, next_url=None):
    button = _translate_button(type(instance), instance.pk, user, priority=15)
    if button is not None:
        yield button

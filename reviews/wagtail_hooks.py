"""Admin wiring: review views, the dashboard panel, and the typed-figure warning in the page editor."""

from django.contrib import messages
from django.urls import path, reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail import hooks
from wagtail.admin.menu import MenuItem
from wagtail.admin.ui.components import Component

from .views import (
    FigureChangesView,
    SnapshotCompareView,
    TypedFiguresReportView,
    can_view_reviews,
    open_change_count,
    recent_open_pages,
)

EDITOR_WARNINGS_SHOWN = 5


@hooks.register("register_admin_urls")
def review_urls():
    return [
        path("reviews/changes/", FigureChangesView.as_view(), name="reviews_changes"),
        path("reviews/compare/<int:old>/<int:new>/", SnapshotCompareView.as_view(), name="reviews_compare"),
        path("reviews/typed-figures/", TypedFiguresReportView.as_view(), name="reviews_typed_figures"),
    ]


class ReviewMenuItem(MenuItem):
    def is_shown(self, request):
        return can_view_reviews(request.user)


@hooks.register("register_admin_menu_item")
def changed_figures_menu_item():
    return ReviewMenuItem(
        gettext_lazy("Changed figures"), reverse("reviews_changes"), icon_name="history", order=260
    )


# "Edit the translated sentence" links to the translation workspace's textarea of the segment
# (`#text-<n>`, reviews/edit_links.py), the only element of a segment with an id. The workspace hides
# a rich segment's textarea behind its editor, and a browser does not scroll to a hidden element:
# this brings the visible element just before it (that editor) into view and puts the cursor in it.
# The admin alone may run inline scripts (config/csp.py).
REVEAL_HIDDEN_TARGET = """<script>
window.addEventListener("load", function () {
  var id = decodeURIComponent(window.location.hash.slice(1));
  var target = id && !id.startsWith(":") ? document.getElementById(id) : null;
  if (!target || !target.hidden || !target.previousElementSibling) return;
  var shown = target.previousElementSibling;
  shown.scrollIntoView({block: "center"});
  var editor = shown.querySelector("[contenteditable='true']");
  if (editor) editor.focus({preventScroll: true});
});
</script>"""


@hooks.register("insert_global_admin_js")
def reveal_hidden_link_targets():
    return mark_safe(REVEAL_HIDDEN_TARGET)  # noqa: S308 (a constant of this module)


@hooks.register("register_reports_menu_item")
def typed_figures_menu_item():
    return ReviewMenuItem(
        gettext_lazy("Figures typed in prose"),
        reverse("reviews_typed_figures"),
        icon_name="warning",
        order=900,
    )


class FigureReviewPanel(Component):
    name = "figure_review"
    order = 90
    template_name = "reviews/homepage_panel.html"

    def get_context_data(self, parent_context=None):
        return {"count": open_change_count(), "pages": recent_open_pages()}


@hooks.register("construct_homepage_panels")
def add_figure_review_panel(request, panels):
    if can_view_reviews(request.user):
        panels.append(FigureReviewPanel())


def warn_about_typed_figures(request, page):
    """A non-blocking message per typed figure in the page as the editor is about to see it.

    The check itself runs in a worker, once per revision (reviews.tasks): opening the editor only
    reads what it found."""
    from articles.models import ArticlePage

    from .tasks import typed_figure_warnings

    if not isinstance(page, ArticlePage):
        return
    warnings = typed_figure_warnings(page, translation.get_language() or "en") or []
    for warning in warnings[:EDITOR_WARNINGS_SHOWN]:
        messages.warning(request, warning)
    if len(warnings) > EDITOR_WARNINGS_SHOWN:
        messages.warning(
            request,
            _("%(count)s more typed figures on this page: see the “Figures typed in prose” report.")
            % {"count": len(warnings) - EDITOR_WARNINGS_SHOWN},
        )


@hooks.register("before_edit_page")
def typed_figures_on_open(request, page):
    # The edit view passes its latest revision, i.e. what the editor is about to see. Saving a
    # draft redirects back here, so the warnings follow a save without being queued twice.
    if request.method == "GET":
        warn_about_typed_figures(request, page)


@hooks.register("after_edit_page")
def typed_figures_after_publish(request, page):
    if "action-publish" in request.POST:
        warn_about_typed_figures(request, page.specific)


@hooks.register("after_create_page")
def typed_figures_after_create(request, page):
    if "action-publish" in request.POST:
        warn_about_typed_figures(request, page.specific)

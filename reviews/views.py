"""Admin views: changed figures to review, two snapshots side by side, figures typed in prose."""

from collections import OrderedDict

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import TemplateView
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin

from benchmarks.models import Snapshot

from .compare import NotComparable, compare_snapshots
from .edit_links import statement_edit_urls
from .models import FigureChange

VIEW_PERMISSION = "reviews.view_figurechange"
CHANGE_PERMISSION = "reviews.change_figurechange"
SNAPSHOT_PERMISSIONS = ("benchmarks.view_snapshot", "benchmarks.change_snapshot")


def can_view_reviews(user):
    return user.has_perm(VIEW_PERMISSION) or user.has_perm(CHANGE_PERMISSION)


def compare_url(change_set):
    if change_set.previous_id is None:
        return ""
    return reverse("reviews_compare", args=[change_set.previous_id, change_set.snapshot_id])


class ReviewAdminView(WagtailAdminTemplateMixin, TemplateView):
    header_icon = "history"

    def has_permission(self, user):
        return can_view_reviews(user)

    def dispatch(self, request, *args, **kwargs):
        if not self.has_permission(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_breadcrumbs_items(self):
        return self.breadcrumbs_items + [{"url": "", "label": self.get_page_title()}]


class FigureChangesView(ReviewAdminView):
    """Open items, grouped by the published change that caused them, then by page and language."""

    template_name = "reviews/changes.html"
    page_title = gettext_lazy("Changed figures")

    def show_reviewed(self):
        return self.request.GET.get("show") == "reviewed"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        items = FigureChange.objects.select_related(
            "change_set__snapshot__source", "change_set__previous", "page", "reviewed_by"
        ).order_by("-change_set__created_at", "-change_set_id", "page__path", "language", "block_index", "pk")
        if self.show_reviewed():
            items = items.filter(reviewed_at__isnull=False)[:500]
        else:
            items = items.open()
        languages = dict(settings.LANGUAGES)
        groups = OrderedDict()
        for item in items:
            group = groups.setdefault(
                item.change_set_id,
                {
                    "change_set": item.change_set,
                    "compare_url": compare_url(item.change_set),
                    "pages": OrderedDict(),
                },
            )
            page_group = group["pages"].setdefault(
                (item.page_id, item.language),
                {
                    "page": item.page,
                    "language": languages.get(item.language, item.language),
                    "language_code": item.language,
                    "edit_url": reverse("wagtailadmin_pages:edit", args=[item.page_id]),
                    "items": [],
                },
            )
            page_group["items"].append(item)
        edit_urls = statement_edit_urls([item for group in groups.values() for page_group in group["pages"].values()
                                         for item in page_group["items"]])
        for group in groups.values():
            for page_group in group["pages"].values():
                # A sentence that is now false is what the editor must fix first.
                page_group["items"].sort(key=lambda item: item.kind != FigureChange.Kind.STATEMENT)
                for item in page_group["items"]:
                    # English words are fixed in the page editor at their block, Spanish ones in the
                    # translation workspace at their segment (reviews/edit_links.py).
                    item.edit_url = edit_urls.get(item.pk, page_group["edit_url"])
        context.update(
            groups=list(groups.values()),
            show_reviewed=self.show_reviewed(),
            can_review=self.request.user.has_perm(CHANGE_PERMISSION),
        )
        return context

    def post(self, request, *args, **kwargs):
        if not request.user.has_perm(CHANGE_PERMISSION):
            raise PermissionDenied
        items = FigureChange.objects.none()
        if request.POST.get("change_set"):
            items = FigureChange.objects.filter(change_set_id=request.POST["change_set"])
        elif request.POST.getlist("items"):
            ids = [pk for pk in request.POST.getlist("items") if pk.isdigit()]
            items = FigureChange.objects.filter(pk__in=ids)
        count = items.mark_reviewed(request.user)
        if count:
            messages.success(request, _("%(count)s changed figures marked as reviewed.") % {"count": count})
        else:
            messages.warning(request, _("Nothing was marked: select the items you reviewed."))
        return redirect("reviews_changes")


class SnapshotCompareView(ReviewAdminView):
    template_name = "reviews/compare.html"
    page_title = gettext_lazy("Compare snapshots")

    def has_permission(self, user):
        return can_view_reviews(user) or any(user.has_perm(p) for p in SNAPSHOT_PERMISSIONS)

    def get(self, request, *args, **kwargs):
        queryset = Snapshot.objects.select_related("source").defer("raw_payload")
        self.old = get_object_or_404(queryset, pk=kwargs["old"])
        self.new = get_object_or_404(queryset, pk=kwargs["new"])
        try:
            self.comparison = compare_snapshots(self.old, self.new)
            self.error = ""
        except NotComparable as error:
            self.comparison, self.error = None, str(error)
        context = self.get_context_data(**kwargs)
        return self.render_to_response(context, status=400 if self.error else 200)

    def get_page_subtitle(self):
        return f"#{self.old.pk} → #{self.new.pk}"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        only_changes = self.request.GET.get("all") != "1"
        groups = []
        if self.comparison:
            groups = [g for g in self.comparison["groups"] if g.changed or not only_changes]
        context.update(
            old=self.old,
            new=self.new,
            error=self.error,
            groups=groups,
            prices=[p for p in (self.comparison or {}).get("prices", []) if p["changed"] or not only_changes],
            only_changes=only_changes,
            unchanged_hidden=bool(self.comparison) and len(groups) < len(self.comparison["groups"]),
        )
        return context


class TypedFiguresReportView(ReviewAdminView):
    """Every article's prose digits that equal a figure a data reference could print.

    The check runs in a worker once per revision (reviews.tasks.check_typed_figures): the report reads
    what it stored for each article's latest revision, in two queries however many articles there are,
    and queues the check of the revisions not checked yet, shown as being checked meanwhile."""

    template_name = "reviews/typed_figures.html"
    page_title = gettext_lazy("Figures typed in prose")
    header_icon = "warning"

    def get_context_data(self, **kwargs):
        from articles.models import ArticlePage

        from .tasks import queue_typed_figure_check

        context = super().get_context_data(**kwargs)
        language = translation.get_language() or "en"
        pages = list(
            ArticlePage.objects.filter(latest_revision__isnull=False)
            .order_by("path")
            .only("pk", "title", "path", "latest_revision_id")
        )
        found = self.stored(pages, language)
        unchecked = [page for page in pages if page.latest_revision_id not in found]
        # A worker that runs tasks eagerly (development, tests) has checked them by now.
        if sum(queue_typed_figure_check(page.latest_revision_id, language) for page in unchecked):
            found = self.stored(pages, language)
            unchecked = [page for page in pages if page.latest_revision_id not in found]
        rows = [
            {
                "page": page,
                "edit_url": reverse("wagtailadmin_pages:edit", args=[page.pk]),
                "findings": found[page.latest_revision_id],
            }
            for page in pages
            if found.get(page.latest_revision_id)
        ]
        pending = [
            {"page": page, "edit_url": reverse("wagtailadmin_pages:edit", args=[page.pk])}
            for page in unchecked
        ]
        context.update(
            rows=rows,
            count=sum(len(row["findings"]) for row in rows),
            pending=pending,
        )
        return context

    @staticmethod
    def stored(pages, language):
        """{revision id: findings} stored for the pages' latest revisions, in one query."""
        from .models import TypedFigureCheck

        checks = TypedFigureCheck.objects.filter(
            language=language, revision_id__in=[page.latest_revision_id for page in pages]
        )
        from .tasks import is_current

        return {revision: found for revision, found in checks.values_list("revision_id", "findings") if is_current(found)}


def open_change_count():
    return FigureChange.objects.open().count()


def recent_open_pages(limit=5):
    """The pages with most recent open items: [(page, language, count)]."""
    from django.db.models import Count, Max

    rows = (
        FigureChange.objects.open()
        .values("page_id", "page__title", "language")
        .annotate(count=Count("pk"), newest=Max("change_set__created_at"))
        .order_by("-newest", "page__title")[:limit]
    )
    languages = dict(settings.LANGUAGES)
    return [
        {
            "title": row["page__title"],
            "language": languages.get(row["language"], row["language"]),
            "count": row["count"],
            "edit_url": reverse("wagtailadmin_pages:edit", args=[row["page_id"]]),
        }
        for row in rows
    ]

"""What every data-bound block shares: access to the page's bulk-loaded data and citations."""

from collections import namedtuple
from functools import wraps

from django.urls import NoReverseMatch
from django.utils.html import strip_tags
from django.utils.translation import gettext_lazy as _
from wagtail import blocks

from benchmarks.metrics import metric_choices

from .choosers import BulkSnippetChooserBlock

BoundChild = namedtuple("BoundChild", ["block", "value"])


def once_per_render(compute):
    """For a StructValue's `compute(self, data)`: computed once per render of the page (PageData.computed),
    however many times the page asks (its head lists the figures before the body prints them)."""

    @wraps(compute)
    def wrapper(value, data):
        memo = getattr(data, "computed", None)
        return memo(value, compute) if memo is not None else compute(value, data)

    return wrapper


def model_chooser(**kwargs):
    return BulkSnippetChooserBlock("benchmarks.LanguageModel", label=kwargs.pop("label", _("model")), **kwargs)


def source_chooser(**kwargs):
    return BulkSnippetChooserBlock("benchmarks.Source", label=kwargs.pop("label", _("source")), **kwargs)


def metric_choice(**kwargs):
    return blocks.ChoiceBlock(choices=metric_choices, label=kwargs.pop("label", _("metric")), **kwargs)


NAME_STYLE_CHOICES = [("short", _("Short provider name (Fireworks)")), ("full", _("Full provider name (Fireworks AI)"))]


def localized(value, name):
    """A block's words (`name_en`). In the Spanish body, derived from the English one, that child holds
    the translation; code-made values (sentence presets) may still carry a `name_es` of their own."""
    from django.utils.translation import get_language

    lang = (get_language() or "en")[:2]
    return (value.get(f"{name}_{lang}") or value.get(f"{name}_en") or "").strip()


def endpoint_name(endpoint, style="short"):
    return endpoint.full_label if style == "full" else endpoint.label


def _is_empty(value):
    if value is None or value == "":
        return True
    source = getattr(value, "source", None)  # RichText
    return source is not None and not strip_tags(source).strip()


def missing_fields(block, value, prefix=""):
    """Labels of the required fields an editor left empty (Wagtail defers them on drafts).

    A draft may hold a block whose model is not chosen yet; it saves, renders a notice instead
    of figures, and publishing names these fields.
    """
    missing = []
    for name, child in getattr(block, "child_blocks", {}).items():
        child_value = value.get(name) if hasattr(value, "get") else None
        # Labels are lazy translations: made into words only for a field that is missing (every
        # render walks every data block; translating each child's label cost ~200 gettext calls).
        label = (prefix, child.label or name)
        if isinstance(child, blocks.StructBlock):
            missing += missing_fields(child, child_value or {}, prefix=(label, " · "))
        elif isinstance(child, blocks.ListBlock):
            for position, item in enumerate(child_value or [], start=1):
                missing += missing_fields(child.child_block, item, prefix=(label, f" {position} · "))
        elif getattr(child, "required", False) and _is_empty(child_value):
            missing.append(_words(label))
    return missing


def _words(parts):
    """A label built by missing_fields (nested tuples of prefixes and lazy labels), as text."""
    if isinstance(parts, tuple):
        return "".join(_words(part) for part in parts)
    return str(parts)


def max_rows_block(**kwargs):
    return blocks.IntegerBlock(
        required=False,
        min_value=1,
        label=_("show at most N rows"),
        help_text=_("Empty: every row. When rows are cut, the table links to the article's data page."),
        **kwargs,
    )


def data_page_url(parent_context):
    """The article's …/data/ page (every figure it shows, with its source), or "" outside an article."""
    context = parent_context or {}
    page = context.get("page")
    if page is None or not hasattr(page, "reverse_subpage"):
        return ""
    try:
        url = page.get_url(request=context.get("request"))
        return url + page.reverse_subpage("data_trail") if url else ""
    except NoReverseMatch:
        return ""


class DataBlockMixin:
    """Blocks bound to benchmark data find the page's PageData in their parent context."""

    # Name under which the template finds the StructValue's computed result.
    result_name = "result"

    def data_requirements(self, value):
        """Yield (model, source) pairs this block shows; the page loads them in bulk.

        Blocks bound to one model and source need not override this.
        """
        if "model" in value:
            yield value["model"], value.get("source")

    def page_data(self, value, parent_context):
        from articles.data import PageData

        data = (parent_context or {}).get("page_data")
        if data is None:
            # Rendered on its own (a test, a preview of one block): load just what it needs.
            data = PageData(blocks=[BoundChild(self, value)])
        return data

    def missing_fields(self, value):
        # Asked by get_template, the context and figures(): walked once per value (a value read from
        # a form or the database is not changed afterwards; a new one is built instead).
        found = value.__dict__.get("_missing_fields") if hasattr(value, "__dict__") else None
        if found is None:
            found = missing_fields(self, value)
            if hasattr(value, "__dict__"):
                value.__dict__["_missing_fields"] = found
        return list(found)

    def get_template(self, value=None, context=None):
        if value is not None and self.missing_fields(value):
            return "articles/blocks/incomplete.html"
        return super().get_template(value, context=context)

    def get_context(self, value, parent_context=None):
        context = super().get_context(value, parent_context=parent_context)
        context["data"] = self.page_data(value, parent_context)
        context.update(self.data_context(value, context["data"]))
        result = context.get(self.result_name)
        if isinstance(result, dict) and result.get("hidden_rows"):
            context["data_page_url"] = data_page_url(parent_context)
        return context

    def data_context(self, value, data):
        """What the template prints; an incomplete block (a draft) computes nothing."""
        missing = self.missing_fields(value)
        if missing:
            return {"incomplete": missing, "block_label": self.label}
        return self.compute_context(value, data)

    def compute_context(self, value, data):
        compute = getattr(value, "compute", None)
        return {self.result_name: compute(data)} if compute else {}

    def figures(self, value, data):
        """Every figure this block prints (articles.figures.Figure), in page order.

        Blocks that compute on their StructValue declare them there (`value.figures(data)`); a data
        block without a declaration fails the registry test rather than escaping the review.
        """
        if self.missing_fields(value):
            return []  # an incomplete draft block prints no figure
        declared = getattr(value, "figures", None)
        if declared is None:
            raise NotImplementedError(f"{type(self).__name__} reads benchmark data but declares no figures")
        return declared(data)

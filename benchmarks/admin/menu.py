"""The "Benchmark data" menu group, and cache invalidation after editors change data."""

from django.utils.translation import gettext_lazy as _
from wagtail import hooks
from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.snippets import (
    SnippetViewSetGroup,
)

from ..cache import invalidate_after_commit
from ..models import Endpoint, LanguageModel, Price, Provider, Snapshot, Source
from .catalog import EndpointViewSet, LanguageModelViewSet, ProviderViewSet, SourceViewSet
from .imports import PriceImportViewSet, SnapshotImportViewSet
from .prices import PriceViewSet
from .snapshots import SnapshotViewSet
from .uploads import UploadViewSet

# Other admin modules (e.g. the refresh admin) add entries to the "Benchmark data" menu through this hook.
BENCHMARK_DATA_MENU_HOOK = "register_benchmark_data_menu_item"



class BenchmarkDataGroup(SnippetViewSetGroup):
    menu_label = _("Benchmark data")
    menu_name = "benchmark-data"
    menu_icon = "table"
    menu_order = 200
    submenu_hook = BENCHMARK_DATA_MENU_HOOK
    items = (
        ProviderViewSet,
        LanguageModelViewSet,
        EndpointViewSet,
        SourceViewSet,
        SnapshotViewSet,
        PriceViewSet,
        SnapshotImportViewSet,
        PriceImportViewSet,
        UploadViewSet,
    )


register_snippet(BenchmarkDataGroup)


# Cached pages are keyed on the data generation: an editor's change must show at once.
@hooks.register("after_create_snippet")
@hooks.register("after_edit_snippet")
def bump_generation_after_save(request, instance):
    if isinstance(instance, Snapshot) and instance.status == Snapshot.Status.DRAFT:
        return  # a draft is not on the site
    if isinstance(instance, Provider | LanguageModel | Endpoint | Source | Snapshot | Price):
        invalidate_after_commit()


@hooks.register("after_delete_snippet")
def bump_generation_after_delete(request, instances):
    if any(isinstance(i, Provider | LanguageModel | Endpoint | Source | Snapshot | Price) for i in instances):
        invalidate_after_commit()

"""Benchmark data: who serves which model, who measured it, what they found and what it costs."""

import contextlib

from django.contrib.contenttypes.fields import GenericRelation
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from modelcluster.fields import ParentalKey
from modelcluster.models import ClusterableModel
from wagtail.models import DraftStateMixin, LockableMixin, RevisionMixin, WorkflowMixin

from localized.revisions import SpanishFromMemoryMixin

from .immutability import ImmutablePriceError, ImmutableSnapshotError, payload_checksum  # noqa: F401 (ImmutablePriceError: re-exported)
from .metrics import METRICS, metric_choices
from .querysets import MeasurementQuerySet, SnapshotQuerySet
from .versioning import bump_content_version, model_key


class ReviewedTextMixin(SpanishFromMemoryMixin, WorkflowMixin, DraftStateMixin, LockableMixin, RevisionMixin, models.Model):
    """Snippets whose reader-facing text has drafts and revisions; its Spanish comes from the workspace.

    An editor's English edit is a revision like a page's; Spanish text is approved in the
    translation workspace and rebuilt into each revision (editorial.spanish).
    """

    class Meta:
        abstract = True

    @property
    def revisions(self):
        return self._revisions


class Provider(ReviewedTextMixin):
    class Kind(models.TextChoices):
        INFERENCE_HOST = "inference_host", _("Inference host")
        MODEL_LAB = "model_lab", _("Model lab with its own API")
        CLOUD = "cloud", _("Cloud platform")
        AGGREGATOR = "aggregator", _("Router / aggregator")

    name = models.CharField(_("name"), max_length=100, unique=True, help_text=_("Short name, e.g. “Fireworks”."))
    full_name = models.CharField(
        _("full name"), max_length=150, blank=True, help_text=_("Longer name where a page wants it, e.g. “Fireworks AI”.")
    )
    slug = models.SlugField(_("slug"), unique=True)
    website = models.URLField(_("website"), blank=True)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.INFERENCE_HOST)
    description = models.CharField(_("one-line description"), max_length=300, blank=True)
    _revisions = GenericRelation("wagtailcore.Revision", related_query_name="provider")
    workflow_states = GenericRelation(
        "wagtailcore.WorkflowState",
        content_type_field="base_content_type",
        object_id_field="object_id",
        related_query_name="provider",
        for_concrete_model=False,
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("provider")
        verbose_name_plural = _("providers")

    def __str__(self):
        return self.name

    @property
    def display_full_name(self):
        return self.full_name or self.name


class LanguageModel(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True)
    slug = models.SlugField(_("slug"), unique=True)
    creator = models.CharField(_("creator"), max_length=100, blank=True)
    open_weights = models.BooleanField(_("open weights"), default=False)
    benchmark_effort = models.CharField(
        _("benchmarked effort / configuration"), max_length=100, blank=True, help_text=_("e.g. “Max”, “High”, “single config”.")
    )
    is_baseline = models.BooleanField(
        _("kept as a baseline"), default=False, help_text=_("An older model kept for comparison across providers.")
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("language model")
        verbose_name_plural = _("language models")

    def __str__(self):
        return self.name


class Endpoint(models.Model):
    class Deployment(models.TextChoices):
        SERVERLESS = "serverless", _("Serverless")
        DEDICATED = "dedicated", _("Dedicated")

    provider = models.ForeignKey(Provider, on_delete=models.PROTECT, related_name="endpoints", verbose_name=_("provider"))
    model = models.ForeignKey(LanguageModel, on_delete=models.PROTECT, related_name="endpoints", verbose_name=_("model"))
    tier = models.CharField(
        _("tier"), max_length=50, blank=True, help_text=_("Empty for the standard tier; e.g. “Fast” for a premium SKU.")
    )
    api_model_id = models.CharField(
        _("API model identifier"), max_length=200, blank=True, help_text=_("e.g. accounts/fireworks/models/glm-5p3-flash")
    )
    api_docs_url = models.URLField(_("API docs URL"), blank=True)
    deployment = models.CharField(_("deployment"), max_length=20, choices=Deployment.choices, default=Deployment.SERVERLESS)
    # What pages print for this endpoint, per language (translated; Spanish falls back to English). Empty:
    # "Provider (Tier)". A host whose plans are named "Ollama Free" / "Ollama Pro" is one provider with two
    # endpoints labelled so, not two providers.
    display_label = models.CharField(
        _("display label"), max_length=100, blank=True,
        help_text=_("How pages name this endpoint, e.g. “Ollama Pro”. Empty: the provider's name and the tier."))

    translation_select_related = ("provider", "model")  # read by str(): editorial.status lists endpoints

    class Meta:
        ordering = ["model__name", "provider__name", "tier"]
        verbose_name = _("endpoint")
        verbose_name_plural = _("endpoints")
        constraints = [
            models.UniqueConstraint(fields=["provider", "model", "tier"], name="endpoint_unique_provider_model_tier")
        ]

    def __str__(self):
        return f"{self.label} · {self.model.name}"

    @property
    def label(self):
        """The name every block prints (short style): the display label in the page's language, or
        "Provider (Tier)"."""
        return self.display_label or (f"{self.provider.name} ({self.tier})" if self.tier else self.provider.name)

    @property
    def full_label(self):
        if self.display_label:
            return self.display_label
        name = self.provider.display_full_name
        return f"{name} ({self.tier})" if self.tier else name


class Source(ReviewedTextMixin):
    class Kind(models.TextChoices):
        BENCHMARK = "benchmark", _("Third-party benchmark")
        FIRST_PARTY = "first_party", _("First-party run")
        PRICE_LIST = "price_list", _("Provider price list")
        DOCUMENTATION = "documentation", _("Documentation")

    title = models.CharField(_("title"), max_length=200)
    publisher = models.CharField(_("publisher"), max_length=100)
    url = models.URLField(_("URL"), max_length=500)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.BENCHMARK)
    licence = models.CharField(_("licence"), max_length=200, blank=True)
    # What pages give search engines as the dataset's licence (schema.org wants a URL there, never the
    # free text of `licence`, which stays for editors).
    licence_url = models.URLField(
        _("licence or terms URL"), max_length=500, blank=True,
        help_text=_("The page that states the licence of this data, or the source's terms of use when it publishes "
                    "no licence. Pages name it as the licence of their data."),
    )
    licence_allows_publication = models.BooleanField(
        _("licence allows publication"),
        default=True,
        help_text=_(
            "Off when the terms do not let these pages publish the data (for example, redistribution needs a "
            "contract we do not have). The admin then warns wherever the source is used."
        ),
    )
    attribution = models.CharField(
        _("required attribution"), max_length=300, blank=True, help_text=_("Shown on every page that shows this source's data.")
    )
    accessed_on = models.DateField(_("date accessed"), null=True, blank=True)
    _revisions = GenericRelation("wagtailcore.Revision", related_query_name="source")
    workflow_states = GenericRelation(
        "wagtailcore.WorkflowState",
        content_type_field="base_content_type",
        object_id_field="object_id",
        related_query_name="source",
        for_concrete_model=False,
    )
    auto_publish = models.BooleanField(
        _("publish refreshed data automatically"),
        default=False,
        help_text=_("Off: a refresh creates a draft snapshot that an editor publishes."),
    )
    is_demo = models.BooleanField(
        _("demo data"),
        default=False,
        help_text=_(
            "Example figures shipped with the demo site, not live measurements. Pages say so; their "
            "benchmark snapshots are dated when the demo is loaded and are never flagged stale."
        ),
    )

    class Meta:
        ordering = ["publisher", "title"]
        verbose_name = _("source")
        verbose_name_plural = _("sources")

    def __str__(self):
        return f"{self.publisher} · {self.title}"


class Snapshot(ClusterableModel):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        SUPERSEDED = "superseded", _("Superseded")

    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="snapshots", verbose_name=_("source"))
    workload = models.CharField(_("workload"), max_length=300, blank=True, help_text=_("e.g. “10,000-token input”."))
    effort = models.CharField(_("effort / configuration"), max_length=100, blank=True)
    concurrency = models.PositiveIntegerField(_("concurrency"), null=True, blank=True)
    sample_size = models.PositiveIntegerField(_("sample size (requests)"), null=True, blank=True)
    window_start = models.DateTimeField(_("measurement window start"), null=True, blank=True)
    window_end = models.DateTimeField(_("measurement window end"), null=True, blank=True)
    measured_at = models.DateTimeField(_("measured at"))
    fetched_at = models.DateTimeField(_("fetched at"), default=timezone.now)
    raw_payload = models.TextField(_("raw upstream payload"), blank=True, help_text=_("Kept verbatim."))
    # One meaning everywhere: the SHA-256 of `raw_payload` as stored (UTF-8), set by save(). A refresh
    # compares what the rows say once placed with `rows_checksum` instead (timestamps do not count).
    checksum = models.CharField(
        _("checksum"), max_length=64, blank=True, db_index=True, editable=False,
        help_text=_("SHA-256 of the raw payload as stored."),
    )
    rows_checksum = models.CharField(
        _("rows checksum"), max_length=64, blank=True, editable=False,
        help_text=_("SHA-256 of the upstream rows as placed on our endpoints (refreshes only)."),
    )
    review_notes = models.TextField(
        _("why it is held for review"), blank=True,
        help_text=_("Implausible values, large jumps or missing fields found when this snapshot was recorded."),
    )
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.DRAFT, db_index=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    supersedes = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="superseded_by", verbose_name=_("supersedes")
    )
    correction_note = models.TextField(_("correction note"), blank=True)
    # The user who last prepared this draft by hand (created, edited, corrected or uploaded it); a refresh
    # leaves it empty. With four eyes on, that person may not also publish it (config/four_eyes.py).
    # A plain id, not a foreign key: deleting a user must not have to rewrite published history rows.
    prepared_by_user_id = models.BigIntegerField(_("prepared by (user id)"), null=True, blank=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = SnapshotQuerySet.as_manager()

    class Meta:
        ordering = ["-measured_at", "-pk"]
        get_latest_by = "measured_at"
        verbose_name = _("snapshot")
        verbose_name_plural = _("snapshots")
        indexes = [
            # Pages ask for "the newest published snapshot(s) of these sources as of a moment".
            models.Index(fields=["measured_at"], name="snapshot_measured_at"),
            models.Index(fields=["source", "status", "measured_at"], name="snapshot_source_status_time"),
            # A source's snapshots newest first whatever their status: "as of a moment" walks them
            # until one in force then has the figure (MeasurementQuerySet._latest_from_history).
            models.Index(fields=["source", "measured_at", "id"], name="snapshot_source_time"),
        ]
        constraints = [
            # The same payload for the same source and moment is one snapshot, whoever imports it and
            # however many times; a correction carries its original's payload, so it is exempt.
            models.UniqueConstraint(
                fields=["source", "measured_at", "checksum"],
                condition=~models.Q(checksum="") & models.Q(supersedes__isnull=True),
                name="snapshot_one_per_source_time_payload",
            )
        ]

    def __str__(self):
        return f"{self.source} · {self.measured_at:%Y-%m-%d %H:%M} ({self.get_status_display()})"

    # --- immutability -------------------------------------------------------------------------
    IMMUTABLE_FIELDS = (
        "source_id", "workload", "effort", "concurrency", "sample_size", "window_start", "window_end",
        "measured_at", "raw_payload", "checksum", "rows_checksum", "review_notes",
    )

    def _stored_changes(self):
        """(stored status, names of immutable fields changed since the last save)."""
        if not self.pk:
            return None, []
        stored = Snapshot.objects.filter(pk=self.pk).values("status", *self.IMMUTABLE_FIELDS).first()
        if not stored:
            return None, []
        return stored["status"], [f for f in self.IMMUTABLE_FIELDS if stored[f] != getattr(self, f)]

    def clean(self):
        if self.window_start and self.window_end and self.window_end < self.window_start:
            raise ValidationError({"window_end": _("The measurement window ends before it starts.")})
        status, changed = self._stored_changes()
        if status and status != self.Status.DRAFT and changed:
            raise ValidationError(
                _("This snapshot is %(status)s and cannot be changed; publish a correction instead.") % {"status": status}
            )

    def save(self, *args, **kwargs):
        status, changed = self._stored_changes()
        if status and status != self.Status.DRAFT:
            if changed or (status == self.Status.SUPERSEDED and self.status != self.Status.SUPERSEDED):
                raise ImmutableSnapshotError(self, changed or ["status"])
        self.checksum = payload_checksum(self.raw_payload)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        if self.status != self.Status.DRAFT:
            raise ImmutableSnapshotError(self, ["deleted"])
        return super().delete(*args, **kwargs)

    # --- life cycle ---------------------------------------------------------------------------
    @transaction.atomic
    def publish(self, at=None):
        """Publish a draft; the source's current published snapshot, if any, is left as is.

        `at`: when it became visible to readers (default now); demo and fixture data publish at
        their measured time so "as of" a past moment reads them as readers did."""
        from wagtail.signal_handlers import (  # needs the models loaded
            disable_reference_index_auto_update,
            reference_index_auto_update_disabled,
        )

        if self.status != self.Status.DRAFT:
            raise ValidationError(_("Only a draft snapshot can be published."))
        self.status = self.Status.PUBLISHED
        self.published_at = at or timezone.now()
        # No reference changes; re-indexing loaded every row. Wagtail's switch does not nest: inside a
        # caller's (a bulk load) leave it to the caller, whose exit would fail if this one cleared it.
        already_off = getattr(reference_index_auto_update_disabled, "value", False)
        with contextlib.nullcontext() if already_off else disable_reference_index_auto_update():
            self.save(update_fields=["status", "published_at"])
        CurrentMeasurement.advance(self)
        # In this transaction: no pre-rendered article showing these models outlives the old data.
        bump_content_version(self.model_keys())
        return self

    def model_keys(self, *others):
        """The dependency keys (benchmarks/versioning.py) of the models this snapshot (and `others`)
        measures or prices: pages load every figure and price of a model they show, from any source."""
        snapshots = [self.pk, *(other.pk for other in others)]
        # No ORDER BY inside the union (SQLite, the development database, refuses one).
        ids = Measurement.objects.filter(snapshot_id__in=snapshots).values("endpoint__model_id").order_by().union(
            Price.objects.filter(snapshot_id__in=snapshots).values("endpoint__model_id").order_by())
        return [model_key(row["endpoint__model_id"]) for row in ids]

    @transaction.atomic
    def publish_correction(self, correction, note):
        """Publish `correction` (a draft) in place of this published snapshot, keeping both."""
        if self.status != self.Status.PUBLISHED:
            raise ValidationError(_("Only a published snapshot can be corrected."))
        if not note.strip():
            raise ValidationError({"correction_note": _("Say what the correction changes.")})
        locked = Snapshot.objects.select_for_update().get(pk=self.pk)
        if locked.status != self.Status.PUBLISHED:
            raise ValidationError(_("This snapshot was superseded meanwhile."))
        # The correction first: the database supersedes a snapshot only once a published correction
        # of it exists (migration 0016). Both happen in this transaction, so readers see neither alone.
        correction.supersedes = self
        correction.correction_note = note
        correction.status = self.Status.PUBLISHED
        correction.published_at = timezone.now()
        correction.save()
        Snapshot.objects.filter(pk=self.pk).update(status=self.Status.SUPERSEDED)
        self.status = self.Status.SUPERSEDED
        CurrentMeasurement.rebuild([self.source_id, correction.source_id])
        bump_content_version(self.model_keys(correction))
        return correction

    @property
    def held_for_review(self):
        return self.status == self.Status.DRAFT and bool(self.review_notes.strip())


class Measurement(models.Model):
    # No index of its own: the unique (snapshot, endpoint, metric) index serves lookups by snapshot (migration 0012).
    snapshot = ParentalKey(Snapshot, on_delete=models.CASCADE, related_name="measurements", verbose_name=_("snapshot"), db_index=False)
    endpoint = models.ForeignKey(Endpoint, on_delete=models.PROTECT, related_name="measurements", verbose_name=_("endpoint"))
    metric = models.CharField(_("metric"), max_length=40, choices=metric_choices)
    value = models.DecimalField(_("value"), max_digits=16, decimal_places=6)

    objects = MeasurementQuerySet.as_manager()

    class Meta:
        ordering = ["snapshot", "endpoint", "metric"]
        verbose_name = _("measurement")
        verbose_name_plural = _("measurements")
        constraints = [
            models.UniqueConstraint(
                fields=["snapshot", "endpoint", "metric"], name="measurement_one_value_per_snapshot_endpoint_metric"
            )
        ]

    def __str__(self):
        return f"{self.endpoint} · {self.metric} = {self.value}"

    @property
    def metric_definition(self):
        return METRICS[self.metric]

    def clean(self):
        errors = {}
        if self.metric not in METRICS:
            errors["metric"] = _("Unknown metric “%(metric)s”.") % {"metric": self.metric}
        elif self.value is not None:
            message = METRICS[self.metric].validate(self.value)
            if message:
                errors["value"] = message
        if self.snapshot_id and self.snapshot.status != Snapshot.Status.DRAFT:
            errors.setdefault("snapshot", _("Measurements of a published or superseded snapshot cannot change."))
        if errors:
            raise ValidationError(errors)

    def save(self, *args, **kwargs):
        if self.snapshot_id and Snapshot.objects.filter(pk=self.snapshot_id).exclude(status=Snapshot.Status.DRAFT).exists():
            raise ImmutableSnapshotError(self.snapshot, ["measurements"])
        message = METRICS[self.metric].validate(self.value) if self.metric in METRICS else f"unknown metric {self.metric}"
        if message:
            raise ValidationError({"value": message})
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        if self.snapshot.status != Snapshot.Status.DRAFT:
            raise ImmutableSnapshotError(self.snapshot, ["measurements"])
        return super().delete(*args, **kwargs)


# Wagtail's reference index would re-index every measurement of a snapshot each time the snapshot is
# saved (59-70 % of an import's time); "which measurements point at this endpoint" is not a usage
# editors need. The snapshot's own reference to its source stays indexed.
Measurement._meta.get_field("endpoint").wagtail_reference_index_ignore = True

from .current import CurrentMeasurement  # noqa: E402,F401
from .price_models import Price  # noqa: E402,F401
from .refresh_models import RefreshConfig, RefreshRun, UnmappedUpstreamRow, UpstreamMapping, WorkerHeartbeat  # noqa: E402,F401,E501
from .upload_models import Upload  # noqa: E402,F401
from .versioning import ContentVersion, DependencyVersion  # noqa: E402,F401

"""Automatic refresh: per-source settings, the editor-managed upstream mapping, the upstream rows
nobody has mapped yet, and the record of every refresh run (imported at the bottom of models.py)."""

from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .adapter_registry import adapter_named


class Upstream(models.TextChoices):
    """Whose identifiers a mapping row speaks about (several adapters can share one upstream)."""

    ARTIFICIAL_ANALYSIS = "artificial_analysis", _("Artificial Analysis")
    OPENROUTER = "openrouter", _("OpenRouter")
    LITELLM = "litellm", _("LiteLLM price list")


class Adapter(models.TextChoices):
    ARTIFICIAL_ANALYSIS = "artificial_analysis", _("Artificial Analysis API")
    ARTIFICIAL_ANALYSIS_LEGACY_FILE = (
        "artificial_analysis_legacy_file",
        _("Artificial Analysis legacy file (saved JSON)"),
    )
    OPENROUTER = "openrouter", _("OpenRouter model endpoints")
    LITELLM = "litellm", _("LiteLLM model price list")


ADAPTER_UPSTREAM = {
    Adapter.ARTIFICIAL_ANALYSIS: Upstream.ARTIFICIAL_ANALYSIS,
    Adapter.ARTIFICIAL_ANALYSIS_LEGACY_FILE: Upstream.ARTIFICIAL_ANALYSIS,
    Adapter.OPENROUTER: Upstream.OPENROUTER,
    Adapter.LITELLM: Upstream.LITELLM,
}


class RefreshConfig(models.Model):
    source = models.OneToOneField(
        "benchmarks.Source", on_delete=models.CASCADE, related_name="refresh_config", verbose_name=_("source")
    )
    adapter = models.CharField(_("adapter"), max_length=40, choices=Adapter.choices)
    params = models.JSONField(
        _("upstream parameters"),
        default=dict,
        blank=True,
        help_text=_(
            "What to read from the upstream, as JSON; see docs/upstreams.md. "
            'e.g. {"models": ["z-ai/glm-5.3"]} for OpenRouter, {"include": ["together_ai/*"]} for LiteLLM.'
        ),
    )
    enabled = models.BooleanField(_("refresh on schedule"), default=True)
    interval_minutes = models.PositiveIntegerField(
        _("refresh every (minutes)"),
        default=180,
        validators=[MinValueValidator(5)],
        help_text=_(
            "The scheduler checks every few minutes and refreshes this source once this much time has passed."
        ),
    )
    max_price_jump_factor = models.DecimalField(
        _("largest accepted price change (factor)"),
        max_digits=6,
        decimal_places=2,
        default=Decimal("3"),
        validators=[MinValueValidator(Decimal("1.01"))],
        help_text=_(
            "A refresh is held for review (a draft, never published automatically) when a price rises or "
            "falls by more than this factor against the current price."
        ),
    )
    workload = models.CharField(
        _("workload recorded on snapshots"),
        max_length=300,
        blank=True,
        help_text=_("e.g. “10,000-token input”."),
    )
    effort = models.CharField(_("effort recorded on snapshots"), max_length=100, blank=True)
    # ETag / Last-Modified per URL from the last good run, for conditional requests.
    http_validators = models.JSONField(default=dict, blank=True, editable=False)
    # The upstream's request budget as its last answer stated it (x-ratelimit-* headers):
    # {"limit": int, "remaining": int, "reset": ISO time, "seen_at": ISO time}.
    rate_limit = models.JSONField(_("request budget"), default=dict, blank=True, editable=False)
    next_attempt_after = models.DateTimeField(
        _("next attempt not before"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("Set when the upstream's request budget is spent: scheduled runs wait until it resets."),
    )

    class Meta:
        ordering = ["source__publisher", "source__title"]
        verbose_name = _("refresh setting")
        verbose_name_plural = _("refresh settings")

    def __str__(self):
        return f"{self.source} · {self.get_adapter_display()}"

    @property
    def upstream(self):
        return ADAPTER_UPSTREAM[self.adapter]

    @property
    def interval(self):
        return timedelta(minutes=self.interval_minutes)

    def is_due(self, last_started, now=None):
        now = now or timezone.now()
        if self.next_attempt_after is not None and now < self.next_attempt_after:
            return False  # the upstream's request budget resets later; asking now would be refused
        return last_started is None or last_started <= now - self.interval

    def clean(self):
        if not isinstance(self.params, dict):
            raise ValidationError({"params": _("Upstream parameters must be a JSON object, e.g. {}.")})
        if self.adapter not in Adapter.values:
            return  # the field's choices refuse it
        message = adapter_named(self.adapter).check_params(self.params)
        if message:
            raise ValidationError({"params": message})


class UpstreamMapping(models.Model):
    """Editors say which of our endpoints an upstream row describes; nothing is ever matched by guesswork."""

    upstream = models.CharField(_("upstream"), max_length=40, choices=Upstream.choices)
    upstream_id = models.CharField(
        _("upstream identifier"),
        max_length=300,
        help_text=_("As the upstream spells it; the unmapped-rows list shows the exact value to copy."),
    )
    upstream_name = models.CharField(_("upstream name"), max_length=300, blank=True)
    endpoint = models.ForeignKey(
        "benchmarks.Endpoint",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="upstream_mappings",
        verbose_name=_("endpoint"),
        help_text=_("For a per-provider row (a provider serving a model, including its tier)."),
    )
    provider = models.ForeignKey(
        "benchmarks.Provider",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="upstream_mappings",
        verbose_name=_("provider"),
        help_text=_("For a model-level row: the provider whose standard-tier endpoint the figures describe."),
    )
    model = models.ForeignKey(
        "benchmarks.LanguageModel",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="upstream_mappings",
        verbose_name=_("model"),
    )
    ignored = models.BooleanField(
        _("not ours: ignore"),
        default=False,
        help_text=_("The row is about something these pages do not cover; it stops appearing as unmapped."),
    )
    note = models.CharField(_("note"), max_length=300, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["upstream", "upstream_id"]
        verbose_name = _("upstream mapping")
        verbose_name_plural = _("upstream mappings")
        constraints = [
            models.UniqueConstraint(
                fields=["upstream", "upstream_id"], name="upstream_mapping_one_per_identifier"
            )
        ]

    def __str__(self):
        return f"{self.get_upstream_display()} · {self.upstream_name or self.upstream_id}"

    def clean(self):
        has_endpoint = self.endpoint_id is not None
        has_pair = self.provider_id is not None or self.model_id is not None
        if self.ignored:
            if has_endpoint or has_pair:
                raise ValidationError(
                    _("An ignored row maps to nothing: clear the endpoint, provider and model.")
                )
            return
        if has_endpoint and has_pair:
            raise ValidationError(_("Choose either an endpoint or a provider and a model, not both."))
        if not has_endpoint and not has_pair:
            raise ValidationError(
                _("Choose the endpoint this row describes (or a provider and a model), or mark it ignored.")
            )
        if has_pair and (self.provider_id is None or self.model_id is None):
            raise ValidationError(
                {
                    "model" if self.model_id is None else "provider": _(
                        "A model-level row needs both a provider and a model."
                    )
                }
            )

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        # The row an editor has just mapped (or ignored) leaves the unmapped list at once, not at the next run.
        UnmappedUpstreamRow.objects.filter(upstream=self.upstream, upstream_id=self.upstream_id).delete()

    def target_label(self):
        if self.ignored:
            return _("ignored")
        if self.endpoint_id:
            return str(self.endpoint)
        return f"{self.provider} · {self.model}"


class UnmappedUpstreamRow(models.Model):
    """An upstream row a refresh could not place on one of our endpoints, kept until an editor maps it.

    One row per upstream identifier, updated in place by every run that meets it, so the whole of a
    large upstream (LiteLLM's thousands of keys) stays searchable. The provider and model it names are
    recognised by name to sort and filter the list (rows naming a known provider or model first); they
    never place a row: only a mapping does (ingest/unmapped.py)."""

    upstream = models.CharField(_("upstream"), max_length=40, choices=Upstream.choices)
    upstream_id = models.CharField(_("upstream identifier"), max_length=300)
    upstream_name = models.CharField(_("upstream name"), max_length=300, blank=True)
    reason = models.CharField(_("why it is unmapped"), max_length=300)
    source = models.ForeignKey(
        "benchmarks.Source",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("source"),
    )
    last_run = models.ForeignKey(
        "benchmarks.RefreshRun",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("last run"),
    )
    first_seen = models.DateTimeField(_("first seen"), default=timezone.now)
    last_seen = models.DateTimeField(_("last seen"), default=timezone.now)
    times_seen = models.PositiveIntegerField(_("times seen"), default=1)
    sample = models.JSONField(_("values in the last run"), default=dict, blank=True)
    provider_hint = models.CharField(_("provider, as the upstream names it"), max_length=200, blank=True)
    model_hint = models.CharField(_("model, as the upstream names it"), max_length=300, blank=True)
    provider = models.ForeignKey(
        "benchmarks.Provider",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("provider"),
        help_text=_("One of our providers whose name the row carries; a hint for editors, never a mapping."),
    )
    model = models.ForeignKey(
        "benchmarks.LanguageModel",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("model"),
        help_text=_("One of our models whose name the row carries; a hint for editors, never a mapping."),
    )
    # How many of the two (provider, model) are ours: the list shows the rows most likely to matter first.
    known_names = models.PositiveSmallIntegerField(_("known names"), default=0)

    class Meta:
        ordering = ["-known_names", "-last_seen", "upstream", "upstream_id"]
        verbose_name = _("unmapped upstream row")
        verbose_name_plural = _("unmapped upstream rows")
        constraints = [
            models.UniqueConstraint(
                fields=["upstream", "upstream_id"], name="unmapped_row_one_per_identifier"
            )
        ]
        indexes = [
            models.Index(fields=["-known_names", "-last_seen"], name="unmapped_row_known_first"),
        ]

    def __str__(self):
        return f"{self.get_upstream_display()} · {self.upstream_name or self.upstream_id}"

    def provider_label(self):
        return str(self.provider) if self.provider_id else self.provider_hint

    def model_label(self):
        return str(self.model) if self.model_id else self.model_hint


class RefreshRun(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        CHANGED = "changed", _("New snapshot")
        HELD = "held", _("Held for review")
        UNCHANGED = "unchanged", _("Unchanged")
        FAILED = "failed", _("Failed")

    class Trigger(models.TextChoices):
        SCHEDULE = "schedule", _("Schedule")
        MANUAL = "manual", _("Refresh now")
        REPLAY = "replay", _("Replay from file")

    FINISHED = (Status.CHANGED, Status.HELD, Status.UNCHANGED, Status.FAILED)

    source = models.ForeignKey(
        "benchmarks.Source", on_delete=models.CASCADE, related_name="refresh_runs", verbose_name=_("source")
    )
    adapter = models.CharField(_("adapter"), max_length=40, choices=Adapter.choices)
    trigger = models.CharField(_("trigger"), max_length=12, choices=Trigger.choices, default=Trigger.SCHEDULE)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    progress = models.CharField(_("progress"), max_length=200, blank=True)
    queued_at = models.DateTimeField(_("queued"), default=timezone.now)
    started = models.DateTimeField(_("started"), null=True, blank=True, db_index=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)
    rows_read = models.PositiveIntegerField(_("rows read"), default=0)
    rows_changed = models.PositiveIntegerField(_("figures changed"), default=0)
    unmapped_rows = models.PositiveIntegerField(_("unmapped rows"), default=0)
    error = models.TextField(_("reason it failed"), blank=True)
    notes = models.TextField(_("notes"), blank=True)
    snapshot = models.ForeignKey(
        "benchmarks.Snapshot",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="refresh_runs",
        verbose_name=_("snapshot created"),
    )
    published = models.BooleanField(_("published automatically"), default=False)
    # A replay's uploaded files until its worker has read them: [{"name": shown name, "stored": storage name}].
    payload_files = models.JSONField(_("replayed files"), default=list, blank=True)
    # Moved on every REFRESH_HEARTBEAT_SECONDS by the process running the run (ingest/heartbeat.py).
    heartbeat_at = models.DateTimeField(_("last heartbeat"), null=True, blank=True)
    worker = models.CharField(_("worker"), max_length=200, blank=True, help_text=_("Host and process id."))
    # [{"endpoint": id, "label": str, "model": id, "what": metric key or "price", "old": str|None, "new": str|None}]
    changes = models.JSONField(_("changed figures"), default=list, blank=True)

    class Meta:
        ordering = ["-queued_at", "-pk"]
        verbose_name = _("refresh run")
        verbose_name_plural = _("refresh runs")

    def __str__(self):
        return f"{self.source} · {self.queued_at:%Y-%m-%d %H:%M} · {self.get_status_display()}"

    @property
    def is_finished(self):
        return self.status in self.FINISHED

    @property
    def outcome(self):
        """One line for listings: the reason of a failure, or what happened."""
        if self.status == self.Status.FAILED:
            return self.error.splitlines()[0] if self.error else _("failed")
        return self.notes.splitlines()[0] if self.notes else self.progress


class WorkerHeartbeat(models.Model):
    """Written by the periodic heartbeat task so editors can see that the worker runs."""

    worker = models.CharField(_("worker"), max_length=200)
    beat_at = models.DateTimeField(_("beat at"), auto_now_add=True)

    class Meta:
        ordering = ["-beat_at"]
        verbose_name = _("worker heartbeat")

    def __str__(self):
        return f"{self.worker} @ {self.beat_at:%Y-%m-%d %H:%M}"

"""First-party measurement: what we probe, how, and one row per request we (or an external runner) sent.

Published figures are not stored here: aggregation writes them as ordinary benchmarks Snapshots and
Measurements of a first-party Source, so every block, freshness rule and review works unchanged.
"""

import hashlib
import re
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from benchmarks.models import Endpoint, Snapshot, Source
from benchmarks.upload_models import uploads_storage

ENV_NAME = re.compile(r"^[A-Z_][A-Z0-9_]{0,127}$")

# The request of the 003 methodology: one-turn JSON-object chat, temperature 0, top-p 1, 256 tokens,
# 20 s timeout, concurrency one.
DEFAULT_MESSAGES = [
    {"role": "system", "content": "Answer with a JSON object only."},
    {"role": "user", "content": 'Extract the action items of this note as {"items": [...]}: '
                                "Ana sends the budget on Friday; Luis books the room."},
]


# How the probe times a request, frozen into every run it starts (docs/first-party-runs.md): from the
# request headers leaving over an open connection to the first content token and to the end of the
# stream; a newly opened connection's set-up is recorded apart (RequestRecord.connect_s).
PROBE_TIMING = "request-sent/connection-excluded"


def default_messages():
    return [dict(message) for message in DEFAULT_MESSAGES]


def tokens_per_second(output_tokens, ttft_s, e2e_s):
    """Tokens after the first one divided by the time after the first one (as industry runners do).

    None when it is undefined: fewer than two tokens, or no time between first token and end.
    """
    if output_tokens is None or ttft_s is None or e2e_s is None or output_tokens < 2 or e2e_s <= ttft_s:
        return None
    return (output_tokens - 1) / (e2e_s - ttft_s)


class Series(models.Model):
    """A continuous measurement fed by scheduled probes; aggregated once per period over a rolling window."""

    name = models.CharField(_("name"), max_length=100, unique=True)
    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="+", verbose_name=_("first-party source"))
    window_hours = models.PositiveIntegerField(_("rolling window (hours)"), default=24)
    period_minutes = models.PositiveIntegerField(
        _("aggregation period (minutes)"), default=60, help_text=_("One snapshot is written per period.")
    )
    region = models.CharField(
        _("region filter"), max_length=50, blank=True, help_text=_("Only records from workers with this label; empty: all.")
    )
    aggregated_until = models.DateTimeField(_("aggregated until"), null=True, blank=True)
    publish = models.BooleanField(_("publish aggregates automatically"), default=True)

    class Meta:
        verbose_name = _("probe series")
        verbose_name_plural = _("probe series")

    def __str__(self):
        return self.name


class ProbeConfig(models.Model):
    """How one endpoint is probed. The API key is read from the named environment variable, never stored."""

    endpoint = models.OneToOneField(
        Endpoint, on_delete=models.CASCADE, related_name="probe_config", verbose_name=_("endpoint")
    )
    enabled = models.BooleanField(_("scheduled probing on"), default=False)
    base_url = models.URLField(_("OpenAI-compatible base URL"), help_text=_("e.g. https://api.example.com/v1"))
    api_model_id = models.CharField(_("API model id"), max_length=200, blank=True,
                                    help_text=_("Empty: the endpoint's API model identifier."))
    api_key_env = models.CharField(
        _("API key environment variable"), max_length=128,
        help_text=_("The NAME of the variable that holds the key on the workers, e.g. FIREWORKS_API_KEY."),
    )
    series = models.ForeignKey(Series, on_delete=models.PROTECT, null=True, blank=True, related_name="configs",
                               verbose_name=_("series"))
    cadence_minutes = models.PositiveIntegerField(_("cadence (minutes)"), default=60)
    daily_budget = models.PositiveIntegerField(_("daily request budget"), default=48)
    messages = models.JSONField(_("messages"), default=default_messages)
    json_mode = models.BooleanField(_("JSON-object mode"), default=True)
    max_tokens = models.PositiveIntegerField(_("max tokens"), default=256)
    temperature = models.FloatField(_("temperature"), default=0.0)
    top_p = models.FloatField(_("top-p"), default=1.0)
    reasoning_effort = models.CharField(_("reasoning setting"), max_length=20, blank=True)
    timeout_seconds = models.FloatField(_("timeout (seconds)"), default=20.0)
    concurrency = models.PositiveIntegerField(_("concurrency"), default=1)
    expected_answer = models.JSONField(
        _("expected answer"), null=True, blank=True,
        help_text=_("Task rubric: the JSON object a correct answer equals. Empty: any valid JSON object succeeds."),
    )
    next_due_at = models.DateTimeField(_("next probe due"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True)

    class Meta:
        ordering = ["endpoint__provider__name"]
        verbose_name = _("probe configuration")
        verbose_name_plural = _("probe configurations")

    def __str__(self):
        return str(self.endpoint)

    def clean(self):
        if not ENV_NAME.match(self.api_key_env or ""):
            raise ValidationError({"api_key_env": _(
                "Give the name of an environment variable (capitals, digits, underscores), not the key itself."
            )})
        if self.concurrency != 1:
            raise ValidationError({"concurrency": _("The probe sends one request at a time; concurrency must be 1.")})

    @property
    def model_id(self):
        return self.api_model_id or self.endpoint.api_model_id

    def request_parameters(self):
        """The frozen request settings a run records (no key, only the variable's name)."""
        return {
            "base_url": self.base_url, "model": self.model_id, "api_key_env": self.api_key_env,
            "messages": self.messages, "json_mode": self.json_mode, "max_tokens": self.max_tokens,
            "temperature": self.temperature, "top_p": self.top_p, "reasoning_effort": self.reasoning_effort,
            "timeout_seconds": self.timeout_seconds, "concurrency": self.concurrency, "stream": True,
            "expected_answer": self.expected_answer,
        }

    def requests_today(self, now=None):
        day = timezone.localdate(now)
        usage = self.usage.filter(day=day).first()
        return usage.count if usage else 0

    def budget_exhausted(self, now=None):
        return self.requests_today(now) >= self.daily_budget

    def schedule_next(self, now):
        self.next_due_at = now + timedelta(minutes=self.cadence_minutes)


class ProbeUsage(models.Model):
    """Requests sent per endpoint and day; a conditional UPDATE reserves one against the budget."""

    config = models.ForeignKey(ProbeConfig, on_delete=models.CASCADE, related_name="usage")
    day = models.DateField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["config", "day"], name="probeusage_one_per_day")]

    def __str__(self):
        return f"{self.config_id} {self.day}: {self.count}"


class Run(models.Model):
    """A batch: N requests per endpoint with a frozen configuration; aggregated into one snapshot."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Not started")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        AGGREGATED = "aggregated", _("Aggregated")
        # A worker could not go on (e.g. the key variable is missing there): the run waits for a person.
        STOPPED = "stopped", _("Stopped: needs attention")

    name = models.CharField(_("name"), max_length=200)
    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="+", verbose_name=_("first-party source"))
    endpoints = models.ManyToManyField(Endpoint, related_name="+", blank=True, verbose_name=_("endpoints"))
    requests_per_endpoint = models.PositiveIntegerField(_("requests per endpoint"), default=600)
    workload = models.CharField(_("workload"), max_length=300, blank=True)
    effort = models.CharField(_("effort / configuration"), max_length=100, blank=True)
    tokenizer = models.CharField(_("token counting"), max_length=100, blank=True,
                                 help_text=_("“usage” (provider-reported) or the tokenizer's name."))
    config = models.JSONField(_("frozen configuration"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.DRAFT)
    # Kept as facts, not a sentence, so each reader sees the explanation in their own admin language.
    problem = models.JSONField(_("problem"), default=dict, blank=True,
                               help_text=_("Why the run stopped, as the worker reported it."))
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    measured_at = models.DateTimeField(_("measured at"), null=True, blank=True,
                                       help_text=_("Stamp of the snapshot; empty: the last record's time."))
    snapshot = models.OneToOneField(Snapshot, on_delete=models.PROTECT, null=True, blank=True, related_name="run",
                                    verbose_name=_("snapshot"))

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("measurement run")
        verbose_name_plural = _("measurement runs")

    def __str__(self):
        return self.name

    def freeze(self, configs):
        """The configuration a started run keeps: what the Methodology block and the workers read, never
        the editable fields (a run cannot be edited once it is no longer a draft)."""
        self.config = {
            "requests_per_endpoint": self.requests_per_endpoint,
            "tokenizer": self.tokenizer,
            "timing": PROBE_TIMING,
            "endpoints": {str(c.endpoint_id): c.request_parameters() for c in configs},
        }

    def freeze_imported(self):
        """For a run fed by runners' files (never started): what its records say, frozen when it is
        aggregated, so its Methodology lines describe exactly the records behind the figures."""
        counts = dict(self.records.order_by().values_list("endpoint_id").annotate(n=models.Count("pk")))
        span = self.records.aggregate(first=models.Min("started_at"), last=models.Max("started_at"))
        methods = self.records.order_by().exclude(token_count="").values_list("token_count", flat=True).distinct()
        self.config = {
            "origin": "import",
            "records_per_endpoint": {str(endpoint_id): n for endpoint_id, n in sorted(counts.items())},
            "token_count": sorted(methods),
            "files": [{"name": f.name, "sha256": f.checksum, "rows": f.rows} for f in self.files.order_by("pk")],
            "first_at": span["first"].isoformat() if span["first"] else None,
            "last_at": span["last"].isoformat() if span["last"] else None,
        }

    @property
    def is_frozen(self):
        """Started, stopped, finished, aggregated or fed by a file: its settings are history now."""
        return self.status != self.Status.DRAFT

    def clean(self):
        if self.pk and self.is_frozen:
            raise ValidationError(frozen_run_message())

    def frozen_requests_per_endpoint(self):
        """Requests per endpoint as frozen: the run's plan, or (imported) the most records of one endpoint."""
        if self.config.get("endpoints"):
            return self.config.get("requests_per_endpoint", self.requests_per_endpoint)
        counts = (self.config.get("records_per_endpoint") or {}).values()
        return max(counts) if counts else None

    def problem_text(self):
        if self.problem.get("code") == "missing_key":
            return missing_key_on_worker_message(self.problem["variable"], self.problem["endpoint"], self.problem["region"])
        return ""

    def expected_requests(self):
        """Frozen endpoints × frozen requests per endpoint; before the start, the plan; None for a run fed by
        runners' files, which has no planned number to measure progress against."""
        endpoints = self.config.get("endpoints")
        if endpoints:
            return self.config.get("requests_per_endpoint", self.requests_per_endpoint) * len(endpoints)
        if self.status == self.Status.DRAFT:
            return self.requests_per_endpoint * self.endpoints.count()
        return None

    def progress(self):
        return self.records.count(), self.expected_requests()

    def records_per_endpoint(self):
        """Per endpoint of the run (provider, model and tier): records so far and the frozen number
        expected (None for imported records). Two queries, whatever the number of endpoints."""
        counts = dict(self.records.order_by().values_list("endpoint_id").annotate(n=models.Count("pk")))
        frozen = self.config.get("endpoints") or {}
        ids = set(counts) | {int(endpoint_id) for endpoint_id in frozen}
        expected = self.config.get("requests_per_endpoint") if frozen else None
        endpoints = Endpoint.objects.filter(pk__in=ids).select_related("provider", "model").order_by(
            "provider__name", "model__name", "tier")
        return [{"endpoint": endpoint, "count": counts.get(endpoint.pk, 0),
                 "expected": expected if str(endpoint.pk) in frozen else None} for endpoint in endpoints]


def missing_key_on_worker_message(variable, endpoint_id, region_label):
    endpoint = Endpoint.objects.select_related("provider", "model").filter(pk=endpoint_id).first()
    return _(
        "A probe worker (region “%(region)s”) has no environment variable %(name)s, so no request was sent to "
        "%(endpoint)s and the run stopped. Set the variable on every worker of the probes queue, then resume the run."
    ) % {"region": region_label or "-", "name": variable, "endpoint": endpoint or endpoint_id}


def frozen_run_message():
    return _("This run has started or holds imported records: its settings are frozen, so what a page says "
             "about it stays what was run. Create a new run to measure with other settings.")


class ImportedFile(models.Model):
    """A runner's file, kept with its checksum like a snapshot's raw payload, imported into a run or a series.

    The file stays in the uploads storage (`stored`), gzip-compressed (`.gz`; firstparty.importers.
    open_original gives its bytes back as they arrived): a file of up to hundreds of megabytes cannot pass
    through one text column in bounded memory. Files imported before that kept their text in `content`."""

    run = models.ForeignKey(Run, on_delete=models.PROTECT, null=True, blank=True, related_name="files",
                            verbose_name=_("run"))
    series = models.ForeignKey(Series, on_delete=models.PROTECT, null=True, blank=True, related_name="files",
                               verbose_name=_("series"))
    name = models.CharField(_("file name"), max_length=255)
    format = models.CharField(_("format"), max_length=20, blank=True,
                              help_text=_("jsonl, csv, aiperf, genai-perf, llmperf, vllm or guidellm"))
    skipped = models.JSONField(_("skipped requests"), default=dict, blank=True,
                               help_text=_("Requests of the file left out, counted per reason."))
    stored = models.FileField(_("stored file"), storage=uploads_storage, max_length=300, blank=True)
    content = models.TextField(_("content"), blank=True)
    # SHA-256 of the file's UTF-8 text without a byte-order mark (firstparty.importers.file_checksum).
    checksum = models.CharField(_("checksum"), max_length=64, db_index=True)
    rows = models.PositiveIntegerField(_("rows"), default=0)
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)

    class Meta:
        verbose_name = _("imported records file")
        constraints = [models.CheckConstraint(
            condition=models.Q(run__isnull=True) ^ models.Q(series__isnull=True), name="importedfile_run_or_series")]

    def __str__(self):
        return f"{self.name} ({self.checksum[:12]})"

    def save(self, *args, **kwargs):
        if self.content:
            self.checksum = hashlib.sha256(self.content.encode()).hexdigest()
        super().save(*args, **kwargs)


class RequestRecord(models.Model):
    class Outcome(models.TextChoices):
        SUCCESS = "success", _("Success")
        WRONG_ANSWER = "wrong_answer", _("Wrong answer")
        TIMEOUT = "timeout", _("Timeout")
        HTTP_ERROR = "http_error", _("HTTP error")
        MALFORMED = "malformed", _("Malformed response")

    # Outcomes that finished a response: the only ones in the latency and speed percentiles.
    COMPLETED = (Outcome.SUCCESS, Outcome.WRONG_ANSWER)
    FAILED = (Outcome.TIMEOUT, Outcome.HTTP_ERROR, Outcome.MALFORMED)

    # Records arrive in bulk (COPY of whole files, 600-request runs), so the table keeps few indexes:
    # the two composite ones below serve every read (per run, per series window, and retention, which
    # selects through runs and series). The link
    # to the imported file is provenance only; it has no database constraint, which saves one referential
    # check per inserted row (the file row is written in the same transaction as its records).
    endpoint = models.ForeignKey(Endpoint, on_delete=models.PROTECT, related_name="+", db_index=False)
    run = models.ForeignKey(Run, on_delete=models.CASCADE, null=True, blank=True, related_name="records",
                            db_index=False)
    series = models.ForeignKey(Series, on_delete=models.CASCADE, null=True, blank=True, related_name="records",
                               db_index=False)
    file = models.ForeignKey(ImportedFile, on_delete=models.SET_NULL, null=True, blank=True, related_name="records",
                             db_index=False, db_constraint=False)
    started_at = models.DateTimeField()
    region = models.CharField(max_length=50, blank=True)
    # Both from the request leaving the client (connection already open) to the first content token /
    # the end of the stream. Opening a connection, when the request needed one, is connect_s.
    ttft_s = models.FloatField(null=True, blank=True)
    e2e_s = models.FloatField(null=True, blank=True)
    connect_s = models.FloatField(null=True, blank=True,
                                  help_text="DNS + TCP + TLS of a connection opened for this request; empty: reused")
    output_tokens = models.PositiveIntegerField(null=True, blank=True)
    token_count = models.CharField(max_length=60, blank=True, help_text="usage, or tokenizer:<name>, or chunks")
    tokens_per_second = models.FloatField(null=True, blank=True)
    outcome = models.CharField(max_length=14, choices=Outcome.choices)
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["started_at", "pk"]
        indexes = [
            models.Index(fields=["run", "endpoint"], name="record_run_endpoint"),
            models.Index(fields=["series", "started_at"], name="record_series_started"),
        ]

    def __str__(self):
        return f"{self.endpoint_id} {self.started_at:%Y-%m-%d %H:%M:%S} {self.outcome}"

    def derive(self):
        self.tokens_per_second = tokens_per_second(self.output_tokens, self.ttft_s, self.e2e_s)
        return self


class SeriesSnapshot(models.Model):
    """Which snapshot aggregates which period of a series (the provenance back to records)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="snapshots")
    snapshot = models.OneToOneField(Snapshot, on_delete=models.PROTECT, related_name="series_period")
    window_start = models.DateTimeField()
    window_end = models.DateTimeField()

    class Meta:
        ordering = ["-window_end"]

    def __str__(self):
        return f"{self.series_id} {self.window_start:%Y-%m-%d %H:%M}–{self.window_end:%H:%M}"

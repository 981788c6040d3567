"""Run one refresh of one source now, in this process, and print its outcome."""

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from benchmarks.ingest.adapters import RefreshError
from benchmarks.ingest.adapters.replay import SavedPayloads
from benchmarks.ingest.refresh import run_refresh
from benchmarks.refresh_models import RefreshConfig, RefreshRun


class Command(BaseCommand):
    help = (
        "Refresh one source synchronously (SOURCE: its id, or a word of its title or publisher that names "
        "exactly one source with refresh settings) and print status, rows read, figures changed, unmapped "
        "rows, notes and the reason of a failure; --from-file replays saved upstream answers instead of "
        "asking the upstream. Exits with 1 when the run failed."
    )

    def add_arguments(self, parser):
        parser.add_argument("source")
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Fetch, parse, validate and place the rows, then roll everything back: nothing is kept.",
        )
        parser.add_argument(
            "--from-file",
            nargs="+",
            metavar="PAYLOAD",
            dest="from_file",
            help=(
                "Saved upstream answers instead of the upstream, in the order the refresh asks for them "
                "(one file per page or per model, or one {\"pages\": [...]} file; .gz read decompressed). "
                "No request is sent and no key is needed; everything else runs as in a refresh."
            ),
        )

    def find_source(self, text):
        configs = RefreshConfig.objects.select_related("source")
        if text.isdigit():
            matches = list(configs.filter(source_id=int(text)))
        else:
            matches = list(
                configs.filter(Q(source__title__icontains=text) | Q(source__publisher__icontains=text))
            )
        if len(matches) != 1:
            known = "; ".join(f"{c.source_id}: {c.source}" for c in configs.order_by("source_id"))
            found = "no source" if not matches else f"{len(matches)} sources"
            raise CommandError(f"{found} with refresh settings match “{text}”. Known: {known or 'none'}")
        return matches[0].source

    def handle(self, *args, **options):
        source = self.find_source(options["source"])
        replay = None
        if options["from_file"]:
            try:
                replay = SavedPayloads.from_paths(options["from_file"])
            except RefreshError as exc:
                raise CommandError(str(exc)) from None
        trigger = RefreshRun.Trigger.REPLAY if replay else RefreshRun.Trigger.MANUAL
        if options["dry_run"]:
            run = self.dry_run(source, trigger, replay)
        else:
            run = run_refresh(source.pk, trigger=trigger, replay=replay)
        self.report(source, run, options["dry_run"])
        if run.status == RefreshRun.Status.FAILED:
            raise CommandError("the refresh failed", returncode=1)

    def dry_run(self, source, trigger, replay):
        from django.db import transaction

        class RolledBack(Exception):
            pass

        outcome = {}
        try:
            with transaction.atomic():
                run = run_refresh(source.pk, trigger=trigger, replay=replay)
                outcome["run"] = run
                raise RolledBack
        except RolledBack:
            pass
        return outcome["run"]

    def report(self, source, run, dry_run):
        lines = [
            f"source: {source} (id {source.pk})" + (" — dry run, nothing was kept" if dry_run else ""),
            f"status: {run.get_status_display()}",
            f"rows read: {run.rows_read}",
            f"figures changed: {run.rows_changed}",
            f"unmapped rows: {run.unmapped_rows}",
        ]
        if run.snapshot_id and not dry_run:
            lines.append(f"snapshot: #{run.snapshot_id}" + (" (published)" if run.published else " (draft)"))
        if run.notes:
            lines.append("notes:")
            lines += [f"  {line}" for line in run.notes.splitlines()]
        if run.error:
            lines.append("failure reason:")
            lines += [f"  {line}" for line in run.error.splitlines()]
        self.stdout.write("\n".join(lines))

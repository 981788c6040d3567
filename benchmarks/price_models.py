"""Prices per 1M tokens: what an endpoint costs, from a provider's price page or a price-list snapshot.

A price recorded by a published (or superseded) snapshot is history: it changes only through a
correction of that snapshot (the database refuses it too, migration 0006).
"""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .immutability import ImmutablePriceError
from .models import Endpoint, Snapshot, Source
from .querysets import PriceQuerySet


class Price(models.Model):
    endpoint = models.ForeignKey(Endpoint, on_delete=models.PROTECT, related_name="prices", verbose_name=_("endpoint"))
    input_per_m = models.DecimalField(_("input price per 1M tokens"), max_digits=12, decimal_places=6)
    output_per_m = models.DecimalField(_("output price per 1M tokens"), max_digits=12, decimal_places=6)
    currency = models.CharField(_("currency"), max_length=3, help_text=_("ISO 4217 code, e.g. USD."))
    promo_input_per_m = models.DecimalField(
        _("promotional input price per 1M"), max_digits=12, decimal_places=6, null=True, blank=True
    )
    promo_output_per_m = models.DecimalField(
        _("promotional output price per 1M"), max_digits=12, decimal_places=6, null=True, blank=True
    )
    promo_until = models.DateField(_("promotion until"), null=True, blank=True)
    effective_date = models.DateField(_("effective date"))
    source = models.ForeignKey(Source, on_delete=models.PROTECT, related_name="prices", verbose_name=_("source"))
    snapshot = models.ForeignKey(
        Snapshot, on_delete=models.PROTECT, null=True, blank=True, related_name="prices", verbose_name=_("snapshot"),
        help_text=_("The import or refresh that recorded this price, if any."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = PriceQuerySet.as_manager()

    class Meta:
        ordering = ["endpoint", "-effective_date", "-pk"]
        verbose_name = _("price")
        verbose_name_plural = _("prices")
        constraints = [
            # One price per endpoint, day and source within a snapshot (a correction's copy of a price
            # list repeats its days) and among prices entered without one. Writers of snapshot prices
            # lock the source row and check the other published snapshots (refresh, importers).
            models.UniqueConstraint(
                fields=["endpoint", "effective_date", "source", "snapshot"], name="price_one_per_endpoint_day_source"
            ),
            models.UniqueConstraint(
                fields=["endpoint", "effective_date", "source"],
                condition=models.Q(snapshot__isnull=True),
                name="price_one_per_endpoint_day_source_loose",
            ),
            models.CheckConstraint(
                condition=models.Q(input_per_m__gte=0) & models.Q(output_per_m__gte=0), name="price_not_negative"
            ),
        ]

    def __str__(self):
        return f"{self.endpoint}: {self.currency} {self.input_per_m} / {self.output_per_m}"

    def clean(self):
        errors = {}
        if not (self.currency or "").strip():
            errors["currency"] = _("A price needs a currency (e.g. USD).")
        elif len(self.currency.strip()) != 3 or not self.currency.strip().isalpha():
            errors["currency"] = _("Use a three-letter ISO 4217 currency code such as USD.")
        for field in ("input_per_m", "output_per_m", "promo_input_per_m", "promo_output_per_m"):
            value = getattr(self, field)
            if value is not None and Decimal(value) < 0:
                errors[field] = _("A price cannot be negative.")
        has_promo = self.promo_input_per_m is not None or self.promo_output_per_m is not None
        if has_promo and self.promo_until is None:
            errors["promo_until"] = _("Say until when the promotional price runs.")
        if errors:
            raise ValidationError(errors)

    def save(self, *args, **kwargs):
        self.currency = (self.currency or "").strip().upper()
        self.full_clean(exclude=["endpoint", "source", "snapshot"], validate_unique=False, validate_constraints=False)
        locked = self.locked_by()
        if locked is not None:
            raise ImmutablePriceError(locked)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        locked = self.locked_by()
        if locked is not None:
            raise ImmutablePriceError(locked)
        return super().delete(*args, **kwargs)

    def locked_by(self):
        """The published or superseded snapshot this price (as stored, or as about to be saved) belongs to.

        Such a price is history: it changes only through a correction of its snapshot (the database
        refuses it too, see migration 0006).
        """
        ids = {self.snapshot_id}
        if self.pk:
            ids.add(Price.objects.filter(pk=self.pk).values_list("snapshot_id", flat=True).first())
        ids.discard(None)
        if not ids:
            return None
        return Snapshot.objects.filter(pk__in=ids).exclude(status=Snapshot.Status.DRAFT).only("pk", "status").first()

    def promo_active(self, on_date=None):
        on_date = on_date or timezone.localdate()
        return self.promo_until is not None and on_date <= self.promo_until

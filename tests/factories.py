"""factory_boy factories for benchmark data, shared by every test module.

Measurements can only be added to a draft snapshot, so a published snapshot with values is
made in one call: ``SnapshotFactory(values=[(endpoint, "ttft_median", 0.5)], published=True)``.
"""

import datetime
from decimal import Decimal

import factory
from django.utils import timezone
from django.utils.text import slugify
from factory.django import DjangoModelFactory

from benchmarks.models import Endpoint, LanguageModel, Measurement, Price, Provider, Snapshot, Source


class ProviderFactory(DjangoModelFactory):
    class Meta:
        model = Provider
        django_get_or_create = ("slug",)

    name = factory.Sequence(lambda n: f"Provider {n}")
    slug = factory.LazyAttribute(lambda o: slugify(o.name))
    website = factory.LazyAttribute(lambda o: f"https://{o.slug}.example.com/")
    kind = Provider.Kind.INFERENCE_HOST
    description = factory.LazyAttribute(lambda o: f"{o.name} serves open-weight models.")


class LanguageModelFactory(DjangoModelFactory):
    class Meta:
        model = LanguageModel
        django_get_or_create = ("slug",)

    name = factory.Sequence(lambda n: f"Model {n}")
    slug = factory.LazyAttribute(lambda o: slugify(o.name))
    creator = "Example Lab"
    open_weights = True
    benchmark_effort = "High"


class EndpointFactory(DjangoModelFactory):
    class Meta:
        model = Endpoint

    provider = factory.SubFactory(ProviderFactory)
    model = factory.SubFactory(LanguageModelFactory)
    tier = ""
    api_model_id = factory.LazyAttribute(lambda o: f"{o.provider.slug}/{o.model.slug}")
    deployment = Endpoint.Deployment.SERVERLESS


class SourceFactory(DjangoModelFactory):
    class Meta:
        model = Source

    title = factory.Sequence(lambda n: f"Benchmark {n}")
    publisher = "Artificial Analysis"
    url = factory.Sequence(lambda n: f"https://benchmarks.example.com/source/{n}")
    kind = Source.Kind.BENCHMARK
    licence = "CC BY 4.0"
    attribution = "Data: Artificial Analysis"
    accessed_on = factory.LazyFunction(timezone.localdate)


class SnapshotFactory(DjangoModelFactory):
    """A draft snapshot; `values=[(endpoint, metric, value), …]` adds measurements, `published=True` publishes."""

    class Meta:
        model = Snapshot
        skip_postgeneration_save = True

    source = factory.SubFactory(SourceFactory)
    workload = "10,000-token input"
    effort = "High"
    measured_at = factory.LazyFunction(lambda: timezone.now() - datetime.timedelta(hours=1))

    @factory.post_generation
    def values(obj, create, extracted, **kwargs):
        if create and extracted:
            Measurement.objects.bulk_create(
                Measurement(snapshot=obj, endpoint=endpoint, metric=metric, value=Decimal(str(value)))
                for endpoint, metric, value in extracted
            )

    @factory.post_generation
    def published(obj, create, extracted, **kwargs):
        if create and extracted:
            # Fixture snapshots are published when they were measured, so "as of" a past moment
            # sees them the way readers did.
            obj.publish(at=min(obj.measured_at, timezone.now()))


class MeasurementFactory(DjangoModelFactory):
    class Meta:
        model = Measurement

    snapshot = factory.SubFactory(SnapshotFactory)
    endpoint = factory.SubFactory(EndpointFactory)
    metric = "output_speed_median"
    value = Decimal("100.0")


class PriceFactory(DjangoModelFactory):
    class Meta:
        model = Price

    endpoint = factory.SubFactory(EndpointFactory)
    input_per_m = Decimal("1.40")
    output_per_m = Decimal("4.40")
    currency = "USD"
    effective_date = factory.LazyFunction(lambda: timezone.localdate() - datetime.timedelta(days=1))
    source = factory.SubFactory(SourceFactory, kind=Source.Kind.PRICE_LIST, publisher="Provider")

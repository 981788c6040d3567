"""The benchmark data behind the demo articles, built in code (idempotent: run it twice, nothing changes).

Figures come from the reference articles: Artificial Analysis provider medians for four models
and a first-party run of 600 requests per provider on GLM-5.3-Flash.
"""

import json
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from .models import Endpoint, LanguageModel, Measurement, Price, Provider, Snapshot, Source

# slug: (name, full name, website, kind, description en, description es)
PROVIDERS = {
    "baseten": ("Baseten", "", "https://www.baseten.co", "inference_host",
                "Inference platform with a standard and a faster premium tier.",
                "Plataforma de inferencia con un nivel estándar y otro prémium más rápido."),
    "together-ai": ("Together AI", "", "https://www.together.ai", "inference_host",
                    "Serverless host of many open-weight models.",
                    "Proveedor serverless de muchos modelos de pesos abiertos."),
    "novita-ai": ("Novita AI", "", "https://novita.ai", "inference_host",
                  "Model API provider with a broad open-model catalogue.",
                  "Proveedor de APIs de modelos con un catálogo amplio de modelos abiertos."),
    "z-ai": ("Z.ai", "Z.AI", "https://z.ai", "model_lab",
             "The GLM family's own lab and first-party API.",
             "El laboratorio de la familia GLM y su API propia."),
    "deepinfra": ("DeepInfra", "", "https://deepinfra.com", "inference_host",
                  "Low-price serverless inference for open models.",
                  "Inferencia serverless de bajo precio para modelos abiertos."),
    "fireworks": ("Fireworks", "Fireworks AI", "https://fireworks.ai", "inference_host",
                  "Serverless and dedicated inference for open models.",
                  "Inferencia serverless y dedicada para modelos abiertos."),
    "deepseek": ("DeepSeek", "", "https://www.deepseek.com", "model_lab",
                 "The DeepSeek models' own lab and API.",
                 "El laboratorio de los modelos DeepSeek y su API."),
    "coreweave": ("CoreWeave", "", "https://www.coreweave.com", "cloud",
                  "GPU cloud that also sells per-token inference.",
                  "Nube de GPU que también vende inferencia por token."),
    "cerebras": ("Cerebras", "", "https://www.cerebras.ai", "inference_host",
                 "Wafer-scale hardware behind a per-token API.",
                 "Hardware a escala de oblea detrás de una API por token."),
    "sambanova": ("SambaNova", "", "https://sambanova.ai", "inference_host",
                  "Custom dataflow chips serving open models.",
                  "Chips propios de flujo de datos que sirven modelos abiertos."),
    "groq": ("Groq", "", "https://groq.com", "inference_host",
             "LPU-based inference known for fast output.",
             "Inferencia sobre LPU conocida por su salida rápida."),
    "modal": ("Modal", "", "https://modal.com", "cloud",
              "Serverless GPU platform with hosted model endpoints.",
              "Plataforma de GPU serverless con endpoints de modelos alojados."),
    "telnyx": ("Telnyx", "", "https://telnyx.com", "inference_host",
               "Communications platform with an inference API.",
               "Plataforma de comunicaciones con una API de inferencia."),
    "parasail": ("Parasail", "", "https://www.parasail.io", "inference_host",
                 "Inference network for open models.",
                 "Red de inferencia para modelos abiertos."),
    "nebius": ("Nebius", "", "https://nebius.com", "cloud",
               "AI cloud with a token-priced model studio.",
               "Nube de IA con un estudio de modelos con precio por token."),
}

# slug: (name, creator, open weights, effort, baseline)
MODELS = {
    "glm-5-3": ("GLM-5.3", "Z.ai", True, "Max", False),
    "deepseek-v4-1-flash-1017": ("DeepSeek V4.1 Flash 1017", "DeepSeek", True, "Max", False),
    "glm-5-3-flash": ("GLM-5.3-Flash", "Z.ai", True, "single config", False),
    "gpt-oss-120b": ("GPT-OSS 120B", "OpenAI", True, "High", True),
}

AA_ATTRIBUTION = "Speed and accuracy data: Artificial Analysis (artificialanalysis.ai)."
AA_ATTRIBUTION_ES = "Datos de velocidad y precisión: Artificial Analysis (artificialanalysis.ai)."

# The 18 numbered sources of the fastest-LLM-API article, in order: key -> (publisher, title, url, kind)
ARTICLE_SOURCES = [
    ("aa-glm-5-3", "Artificial Analysis", "GLM-5.3 providers",
     "https://artificialanalysis.ai/models/glm-5-3/providers", "benchmark"),
    ("aa-deepseek-v4-1-flash-1017", "Artificial Analysis", "DeepSeek V4.1 Flash 1017 providers",
     "https://artificialanalysis.ai/models/deepseek-v4-1-flash-1017/providers", "benchmark"),
    ("aa-glm-5-3-flash", "Artificial Analysis", "GLM-5.3-Flash providers",
     "https://artificialanalysis.ai/models/glm-5-3-flash/providers", "benchmark"),
    ("aa-gpt-oss-120b", "Artificial Analysis", "GPT-OSS 120B providers",
     "https://artificialanalysis.ai/models/gpt-oss-120b/providers", "benchmark"),
    ("baseten-pricing", "Baseten", "pricing", "https://www.baseten.co/pricing/", "price_list"),
    ("novita-glm-5-3", "Novita AI", "GLM-5.3", "https://novita.ai/models/llm/zai-org-glm-5.3", "price_list"),
    ("novita-deepseek-v4-1-flash-1017", "Novita AI", "DeepSeek V4.1 Flash 1017",
     "https://novita.ai/models/llm/deepseek-v4.1-flash-1017", "price_list"),
    ("novita-glm-5-3-flash", "Novita AI", "GLM-5.3-Flash",
     "https://novita.ai/models/llm/zai-org-glm-5.3-flash", "price_list"),
    ("novita-gpt-oss-120b", "Novita AI", "GPT-OSS 120B", "https://novita.ai/models/llm/openai-gpt-oss-120b", "price_list"),
    ("groq-gpt-oss-120b", "Groq", "GPT-OSS 120B", "https://groq.com/pricing", "price_list"),
    ("deepseek-pricing", "DeepSeek", "API pricing", "https://api-docs.deepseek.com/quick_start/pricing", "price_list"),
    ("cerebras-pricing", "Cerebras", "pricing", "https://www.cerebras.ai/pricing", "price_list"),
    ("sambanova-pricing", "SambaNova", "model token prices", "https://cloud.sambanova.ai/pricing", "price_list"),
    ("coreweave-pricing", "CoreWeave", "Forge token prices", "https://www.coreweave.com/pricing", "price_list"),
    ("fireworks-pricing", "Fireworks", "serverless pricing", "https://fireworks.ai/pricing", "price_list"),
    ("together-pricing", "Together AI", "pricing", "https://www.together.ai/pricing", "price_list"),
    ("deepinfra-glm-5-3", "DeepInfra", "GLM-5.3", "https://deepinfra.com/zai-org/GLM-5.3", "price_list"),
    ("zai-pricing", "Z.ai", "pricing", "https://docs.z.ai/guides/overview/pricing", "price_list"),
]
# The page stating each source's licence, or its publisher's terms of use where it states none (the
# provider pages' addresses as OpenRouter's provider documentation lists them). Pages give it to search
# engines as their data's licence; the demo run's repository has no licence page, so it has none.
LICENCE_URLS = {  # publisher -> page
    "Artificial Analysis": "https://artificialanalysis.ai/terms-of-use",
    "Baseten": "https://www.baseten.co/terms-and-conditions/",
    "Novita AI": "https://novita.ai/legal/terms-of-service",
    "Groq": "https://groq.com/terms-of-use/",
    "DeepSeek": "https://platform.deepseek.com/downloads/DeepSeek%20Open%20Platform%20Terms%20of%20Service.html",
    "Cerebras": "https://www.cerebras.ai/terms-of-service",
    "SambaNova": "https://sambanova.ai/terms-and-conditions",
    "CoreWeave": "https://www.coreweave.com/legal/terms-of-use",
    "Fireworks": "https://fireworks.ai/terms-of-service",
    "Together AI": "https://www.together.ai/terms-of-service",
    "DeepInfra": "https://deepinfra.com/terms",
    "Z.ai": "https://docs.z.ai/legal-agreement/terms-of-use",
    # Our own measurements (the first-party run and the probe series) are published under CC BY 4.0.
    "openbenchmarks-labs": "https://creativecommons.org/licenses/by/4.0/",
}


RUN_SOURCE = (
    "run-glm-5-3-flash", "openbenchmarks-labs", "GLM-5.3-Flash provider run, 600 requests per provider",
    "https://github.com/openbenchmarks-labs/inference", "first_party",
)
# The probe series the scorecard's trend chart plots (firstparty/demo_series.py).
SERIES_SOURCE = (
    "probe-glm-5-3-flash", "openbenchmarks-labs", "GLM-5.3-Flash probe, rolling 24 h windows",
    "https://github.com/openbenchmarks-labs/inference/tree/main/probe", "first_party",
)
SERIES_TITLE_ES = "Sonda de GLM-5.3-Flash, ventanas móviles de 24 h"
# Each source's title in Spanish (Source.title_es), so the Spanish pages cite it in Spanish. A title that
# is a model's name reads the same in both languages; it is set all the same, so it is not a fallback.
TITLES_ES = {
    "aa-glm-5-3": "proveedores de GLM-5.3",
    "aa-deepseek-v4-1-flash-1017": "proveedores de DeepSeek V4.1 Flash 1017",
    "aa-glm-5-3-flash": "proveedores de GLM-5.3-Flash",
    "aa-gpt-oss-120b": "proveedores de GPT-OSS 120B",
    "baseten-pricing": "precios",
    "novita-glm-5-3": "GLM-5.3",
    "novita-deepseek-v4-1-flash-1017": "DeepSeek V4.1 Flash 1017",
    "novita-glm-5-3-flash": "GLM-5.3-Flash",
    "novita-gpt-oss-120b": "GPT-OSS 120B",
    "groq-gpt-oss-120b": "GPT-OSS 120B",
    "deepseek-pricing": "precios de la API",
    "cerebras-pricing": "precios",
    "sambanova-pricing": "precios por token de los modelos",
    "coreweave-pricing": "precios por token de Forge",
    "fireworks-pricing": "precios serverless",
    "together-pricing": "precios",
    "deepinfra-glm-5-3": "GLM-5.3",
    "zai-pricing": "precios",
    "run-glm-5-3-flash": "medición de proveedores de GLM-5.3-Flash, 600 peticiones por proveedor",
    "probe-glm-5-3-flash": SERIES_TITLE_ES,
}

PRICE_DATE = date(2026, 11, 1)
# Artificial Analysis republishes medians several times a day; the demo snapshot is stamped when it is
# loaded so that freshness rules treat it as current (a real refresh brings upstream timestamps).
AA_SNAPSHOT_AGE = timedelta(hours=2)
RUN_MEASURED_AT = datetime(2026, 9, 3, 18, 0, tzinfo=UTC)

# model slug -> (source key, [(provider slug, tier, speed, first chunk, accuracy, input, output, price source)])
AA_TABLES = {
    "glm-5-3": ("aa-glm-5-3", [
        ("baseten", "Fast", "283.4", "0.90", "94.18", "2.10", "6.60", "baseten-pricing"),
        ("together-ai", "", "164.3", "0.67", "96.39", "1.40", "4.40", "together-pricing"),
        ("baseten", "", "150.4", "2.60", "95.54", "1.40", "4.40", "baseten-pricing"),
        ("novita-ai", "", "105.5", "2.51", "95.62", "1.40", "4.40", "novita-glm-5-3"),
        ("z-ai", "", "98.2", "2.39", "98.74", "1.40", "4.40", "zai-pricing"),
        ("deepinfra", "", "97.1", "0.97", "98.6", "0.90", "4.00", "deepinfra-glm-5-3"),
    ]),
    "deepseek-v4-1-flash-1017": ("aa-deepseek-v4-1-flash-1017", [
        ("baseten", "Fast", "837.1", "0.21", None, "0.60", "2.40", "baseten-pricing"),
        ("together-ai", "", "365.0", "0.32", None, "0.30", "1.20", "together-pricing"),
        ("baseten", "", "281.1", "0.27", None, "0.30", "1.20", "baseten-pricing"),
        ("fireworks", "", "210.4", "1.15", None, "0.30", "1.20", "fireworks-pricing"),
        ("deepseek", "", "169.0", "1.19", None, "0.30", "1.20", "deepseek-pricing"),
        ("novita-ai", "", "158.0", "1.43", None, "0.30", "1.20", "novita-deepseek-v4-1-flash-1017"),
        ("deepinfra", "", "65.3", "0.72", None, "0.20", "0.60", "deepinfra-glm-5-3"),
    ]),
    "glm-5-3-flash": ("aa-glm-5-3-flash", [
        ("coreweave", "", "292.4", "1.38", None, "0.15", "0.50", "coreweave-pricing"),
        ("together-ai", "", "190.1", "0.70", None, "0.15", "0.50", "together-pricing"),
        ("fireworks", "", "167.2", "3.16", None, "0.15", "0.50", "fireworks-pricing"),
        ("baseten", "", "147.4", "0.41", None, "0.15", "0.50", "baseten-pricing"),
        ("novita-ai", "", "94.3", "4.00", None, "0.15", "0.50", "novita-glm-5-3-flash"),
        ("z-ai", "", "73.5", "2.84", None, "0.15", "0.50", "zai-pricing"),
        ("deepinfra", "", "57.2", "0.83", None, "0.15", "0.50", "deepinfra-glm-5-3"),
    ]),
    "gpt-oss-120b": ("aa-gpt-oss-120b", [
        ("cerebras", "", "1693.7", "0.38", "87", "0.35", "0.75", "cerebras-pricing"),
        ("sambanova", "", "701.2", "1.18", "98", "0.22", "0.59", "sambanova-pricing"),
        ("groq", "", "473.4", "0.63", "86", "0.15", "0.60", "groq-gpt-oss-120b"),
        ("novita-ai", "", "238.9", "0.92", "91", "0.05", "0.25", "novita-gpt-oss-120b"),
        ("together-ai", "", "169.4", "0.53", "77", "0.15", "0.60", "together-pricing"),
        ("coreweave", "", "98.3", "1.40", "98", "0.03", "0.17", "coreweave-pricing"),
        ("deepinfra", "", "56.6", "0.62", "97", "0.037", "0.17", "deepinfra-glm-5-3"),
    ]),
}
# DeepInfra runs a promotion on DeepSeek V4.1 Flash 1017.
PROMOTIONS = {("deepinfra", "deepseek-v4-1-flash-1017"): ("0.098", "0.294", date(2026, 12, 31))}

# First-party run on GLM-5.3-Flash: provider -> (API model id, docs URL, TTFT median, e2e p99, TTFT p95,
# tokens/s p95 floor, tokens/s median, task success %, failure rate %): the figures the published run
# reported, which the generated per-request records reproduce after aggregation. The e2e p99 is kept at
# 0.1 ms so that differences to the leader come out as the run reported them.
RUN_ROWS = [
    ("baseten", "zai-org/GLM-5.3-Flash", "https://docs.baseten.co/development/model-apis/overview",
     "0.331", "3.2272", "1.16", "61.6", "240.5", "95.8", "0.0"),
    ("modal", "zai-org/GLM-5.3-Flash", "https://modal.com/docs/guide",
     "0.574", "3.2772", "1.09", "84.7", "222.2", "99.3", "0.0"),
    ("telnyx", "zai-org/GLM-5.3-Flash", "https://developers.telnyx.com/docs/inference",
     "0.669", "3.4772", "1.34", "67.5", "184.3", "99.5", "0.0"),
    ("novita-ai", "zai-org/glm-5.3-flash", "https://novita.ai/docs/guides/llm-api",
     "1.74", "7.2472", "3.41", "29.6", "60.6", "94.2", "4.0"),
    ("z-ai", "glm-5.3-flash", "https://docs.z.ai/api-reference/llm/chat-completion",
     "1.75", "8.5892", "3.14", "27.8", "56.3", "97.5", "0.2"),
    ("fireworks", "accounts/fireworks/models/glm-5p3-flash", "https://docs.fireworks.ai/api-reference/post-chatcompletions",
     "1.95", "10.4862", "5.83", "27.9", "58.2", "99.5", "0.0"),
    ("parasail", "zai-org/GLM-5.3-Flash", "https://docs.parasail.io/",
     "1.59", "11.5102", "5.54", "22.8", "52.4", "98.3", "1.3"),
    ("together-ai", "zai-org/GLM-5.3-Flash", "https://docs.together.ai/reference/chat-completions-1",
     "0.609", "12.4482", "2.26", "34.0", "151.6", "98.5", "1.0"),
    ("nebius", "zai-org/GLM-5.3-Flash", "https://docs.nebius.com/studio/inference/api",
     "1.45", "14.9692", "7.11", "78.8", "269.3", "84.8", "14.8"),
    ("deepinfra", "zai-org/GLM-5.3-Flash", "https://deepinfra.com/docs/openai_api",
     "1.83", "17.0692", "6.41", "9.0", "69.4", "95.5", "4.0"),
]
RUN_METRICS = ("ttft_median", "e2e_p99", "ttft_p95", "tps_p95", "tps_median", "task_success", "failure_rate")


def _upsert_providers():
    providers = {}
    for slug, (name, full_name, website, kind, desc_en, desc_es) in PROVIDERS.items():
        provider, _created = Provider.objects.get_or_create(
            slug=slug,
            defaults={
                "name": name, "full_name": full_name, "website": website, "kind": kind,
                "description_en": desc_en, "description_es": desc_es,
            },
        )
        providers[slug] = provider
    return providers


def _upsert_models():
    models = {}
    for slug, (name, creator, open_weights, effort, baseline) in MODELS.items():
        model, _created = LanguageModel.objects.get_or_create(
            slug=slug,
            defaults={"name": name, "creator": creator, "open_weights": open_weights,
                      "benchmark_effort": effort, "is_baseline": baseline},
        )
        models[slug] = model
    return models


def _upsert_sources():
    sources = {}
    for key, publisher, title, url, kind in ARTICLE_SOURCES + [RUN_SOURCE, SERIES_SOURCE]:
        is_aa = publisher == "Artificial Analysis"
        source, _created = Source.objects.get_or_create(
            url=url,
            defaults={
                "publisher": publisher, "title_en": title, "kind": kind, "accessed_on": date(2026, 11, 27),
                "attribution_en": AA_ATTRIBUTION if is_aa else "",
                "attribution_es": AA_ATTRIBUTION_ES if is_aa else "",
                "licence": "Attribution required" if is_aa else "",
                "licence_url": LICENCE_URLS.get(publisher, ""),
                "is_demo": True,
                "title_es": TITLES_ES.get(key),
            },
        )
        if not source.title_es and TITLES_ES.get(key):  # a database loaded before sources had one
            source.title_es = TITLES_ES[key]
            Source.objects.filter(pk=source.pk).update(title_es=source.title_es)
        if not source.is_demo:  # a database loaded before sources were labelled
            Source.objects.filter(pk=source.pk).update(is_demo=True)
            source.is_demo = True
        if not source.licence_url and LICENCE_URLS.get(publisher):  # a database loaded before sources had one
            source.licence_url = LICENCE_URLS[publisher]
            Source.objects.filter(pk=source.pk).update(licence_url=source.licence_url)
        sources[key] = source
    return sources


def _endpoint(providers, models, provider_slug, model_slug, tier="", **extra):
    endpoint, created = Endpoint.objects.get_or_create(
        provider=providers[provider_slug], model=models[model_slug], tier=tier, defaults=extra
    )
    if not created and extra:
        changed = {k: v for k, v in extra.items() if not getattr(endpoint, k)}
        if changed:
            for k, v in changed.items():
                setattr(endpoint, k, v)
            endpoint.save(update_fields=list(changed))
    return endpoint


def _published_snapshot(source, rows, measured_at, **meta):
    """One published snapshot whose raw payload is the rows as JSON; skipped when already there."""
    payload = json.dumps(rows, sort_keys=True, indent=1)
    snapshot = Snapshot.objects.filter(source=source, raw_payload=payload).first()
    if snapshot:
        return snapshot, False
    snapshot = Snapshot.objects.create(source=source, raw_payload=payload, measured_at=measured_at, **meta)
    return snapshot, True


@transaction.atomic
def load_benchmark_data():
    providers, models, sources = _upsert_providers(), _upsert_models(), _upsert_sources()
    report = []
    for model_slug, (source_key, rows) in AA_TABLES.items():
        endpoints = [_endpoint(providers, models, row[0], model_slug, row[1]) for row in rows]
        payload_rows = [
            {"provider": r[0], "tier": r[1], "output_speed_median": r[2], "ttfc_median": r[3], "accuracy_index": r[4]}
            for r in rows
        ]
        snapshot, created = _published_snapshot(
            sources[source_key], payload_rows, timezone.now() - AA_SNAPSHOT_AGE,
            workload="10,000-token input", effort=models[model_slug].benchmark_effort, concurrency=1,
        )
        if created:
            measurements = []
            for endpoint, row in zip(endpoints, rows, strict=True):
                for metric, value in (("output_speed_median", row[2]), ("ttfc_median", row[3]), ("accuracy_index", row[4])):
                    if value is not None:
                        measurements.append(Measurement(snapshot=snapshot, endpoint=endpoint, metric=metric, value=Decimal(value)))
            Measurement.objects.bulk_create(measurements)
            snapshot.publish()
            report.append(f"snapshot {snapshot.source} with {len(measurements)} measurements")
        for endpoint, row in zip(endpoints, rows, strict=True):
            promo = PROMOTIONS.get((row[0], model_slug))
            Price.objects.get_or_create(
                endpoint=endpoint, effective_date=PRICE_DATE, source=sources[row[7]],
                defaults={
                    "input_per_m": Decimal(row[5]), "output_per_m": Decimal(row[6]), "currency": "USD",
                    "promo_input_per_m": Decimal(promo[0]) if promo else None,
                    "promo_output_per_m": Decimal(promo[1]) if promo else None,
                    "promo_until": promo[2] if promo else None,
                },
            )

    run_endpoints = [
        _endpoint(providers, models, row[0], "glm-5-3-flash", "", api_model_id=row[1], api_docs_url=row[2])
        for row in RUN_ROWS
    ]
    # The run is loaded as 600 per-request records per provider and aggregated into the source's
    # snapshot (firstparty/demo.py says how the records reproduce the published figures).
    from firstparty.demo import load_demo_run

    run, created = load_demo_run(
        sources["run-glm-5-3-flash"], run_endpoints, RUN_ROWS, RUN_MEASURED_AT, RUN_MEASURED_AT.replace(hour=9),
        workload="600 structured tasks per provider (meeting notes, ticket triage, contract terms), 256-token cap",
        effort="reasoning low",
    )
    if created:
        report.append(f"run {run} with {run.records.count()} request records, snapshot {run.snapshot_id}")

    from firstparty.demo_series import load_demo_series

    by_provider = {row[0]: endpoint for row, endpoint in zip(RUN_ROWS, run_endpoints, strict=True)}
    series, created = load_demo_series(
        sources[SERIES_SOURCE[0]], by_provider, {row[0]: (float(row[3]), float(row[7])) for row in RUN_ROWS})
    if created:
        report.append(f"series {series} with {series.snapshots.count()} published windows")

    from .demo_refresh import load_demo_refresh

    endpoints = {(e.provider.slug, e.model.slug, e.tier): e for e in Endpoint.objects.select_related("provider", "model")}
    sources["litellm"] = load_demo_refresh(endpoints)
    return {"providers": providers, "models": models, "sources": sources, "report": report}

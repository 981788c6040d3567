"""Ready-made sentences for the provider-by-provider list, as data: the same parts an editor composes.

Each part is a figure (a metric key or "price") with the words before and after it in each
language, a unit style and optional fixed decimals (see provider_list.SentencePartBlock). The
sentence joins the parts with ", " and ends with a full stop.
"""

from django.utils.translation import gettext_lazy as _


def part(field, before=("", ""), after=("", ""), unit="auto", decimals=None):
    return {
        "field": field,
        "before_en": before[0], "before_es": before[1],
        "after_en": after[0], "after_es": after[1],
        "unit": unit, "decimals": decimals,
    }


SENTENCE_PRESETS = {
    "latency_scorecard": {
        "label": _("Latency scorecard: median, p99, TTFT p95, tokens/s, task success, failures"),
        "parts": [
            part("ttft_median", after=("median", "de mediana")),
            part("e2e_p99", after=("end-to-end p99", "de p99 de extremo a extremo")),
            part("ttft_p95", before=("time to first token p95", "tiempo hasta el primer token p95")),
            # A first-party scorecard: its speed is the median of our own per-request tokens/s.
            part("tps_median", after=("tokens per second", "tokens por segundo"), unit="number"),
            part("task_success", after=("task success", "de éxito en tareas")),
            part("failure_rate", after=("failures", "de fallos")),
        ],
    },
    "speed_summary": {
        "label": _("Speed summary: tokens/s and first chunk"),
        "parts": [
            part("output_speed_median", after=("tokens per second", "tokens por segundo")),
            part("ttfc_median", before=("first chunk after", "primer fragmento a los")),
        ],
    },
    "latency_only": {
        "label": _("Latency only: TTFT median and p95, end-to-end p99"),
        "parts": [
            part("ttft_median", after=("median time to first token", "de mediana de tiempo hasta el primer token")),
            part("ttft_p95", after=("at p95", "en p95")),
            part("e2e_p99", after=("end-to-end p99", "de p99 de extremo a extremo")),
        ],
    },
}

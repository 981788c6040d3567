"""The demo scorecard "GLM-5.3-Flash API providers compared", built on a first-party run."""

from benchmarks.demo_data import RUN_ROWS

from .blocks import DemoBlocks
from .statements import DemoStatements

FLASH = "glm-5-3-flash"
RUN = "run-glm-5-3-flash"
PROBE = "probe-glm-5-3-flash"
REQUESTS = 600  # per host, as the run was set up (each host's "Requests measured" figure)


def run_claims(st):
    """The run's facts the scorecard's sentences state, as conditions on its figures."""

    def leads(host, metric, neg=False):
        return st.leads(host, [FLASH], metric=metric, source=RUN, neg=neg)

    # "600 requests each": every host's request count is 600, and no host beyond the run's is measured.
    each = [st.count(FLASH, "le", len(RUN_ROWS), metric="sample_count", source=RUN)]
    for row in RUN_ROWS:
        each += [st.value(row[0], FLASH, "above", REQUESTS - 1, metric="sample_count", source=RUN),
                 st.value(row[0], FLASH, "below", REQUESTS + 1, metric="sample_count", source=RUN)]
    return {
        "requests": each,
        # The shortest tail latency and the most correct answers are two hosts' (so none wins everything).
        "split": [leads("baseten", "e2e_p99"), leads("baseten", "task_success", neg=True)],
        # The whole answer's leader and the first token's leader differ.
        "leaders": [leads("baseten", "e2e_p99"), leads("modal", "ttft_p95")],
    }


def scorecard_body(lang, data, fastest_page=None):
    b = DemoBlocks(lang, data)
    st = DemoStatements(b)
    claims = run_claims(st)
    faq = [
        ("Is there one GLM-5.3-Flash host that wins every metric?",
         "¿Hay un proveedor de GLM-5.3-Flash que gane en todas las métricas?",
         "<p>" + st("No: Baseten has the shortest tail latency but not the most correct answers", *claims["split"])
         + ", and the scorecard keeps each metric in its own column instead of folding them into a single "
         "score.</p>",
         "<p>" + st("No: Baseten tiene la menor latencia de cola, pero no la mayor tasa de respuestas correctas",
                    *claims["split"])
         + ", y la tabla mantiene cada métrica en su columna en lugar de reducirlas a una sola puntuación.</p>"),
        ("How do I pick a host from this table?", "¿Cómo elijo un proveedor con esta tabla?",
         "<p>Decide which requirement matters most, drop the rows that fall short on task success or failure "
         "rate, then compare end-to-end p99 among the hosts that remain.</p>",
         "<p>Decide qué requisito importa más, descarta las filas que no llegan en éxito de tareas o tasa de fallos "
         "y compara el p99 de extremo a extremo entre los proveedores que queden.</p>"),
        ("Which column tells me which host is fastest?", "¿Qué columna indica el proveedor más rápido?",
         "<p>For an application that waits for the whole answer, read end-to-end p99. For a streaming interface, "
         "read time to first token p95 and the tokens-per-second floor. "
         + st("In this run the leaders differ: Baseten has the lowest end-to-end p99, Modal the lowest time to "
              "first token p95", *claims["leaders"]) + ".</p>",
         "<p>Si tu aplicación espera la respuesta completa, mira el p99 de extremo a extremo. Si muestra la "
         "respuesta en streaming, mira el TTFT p95 y el mínimo de tokens por segundo. "
         + st("En esta medición los líderes son distintos: Baseten tiene el p99 de extremo a extremo más bajo y "
              "Modal el TTFT p95 más bajo", *claims["leaders"]) + ".</p>"),
        ("Which host is the most accurate?", "¿Qué proveedor es el más preciso?",
         "<p>Read the task success column. Every host answered the same tasks with the same requested model, so a "
         "gap between rows comes from the serving layer, not the model.</p>",
         "<p>Mira la columna de éxito de tareas. Todos los proveedores respondieron las mismas tareas con el mismo "
         "modelo, así que la diferencia entre filas viene de la capa de servicio y no del modelo.</p>"),
    ]
    links = []
    if fastest_page is not None:
        links.append({"page": fastest_page.pk, "url": "", "text": ""})
    links.append({"page": None, "url": "https://github.com/openbenchmarks-labs/inference",
                  "text": b.text(("Runner and per-request records", "Ejecutor y registros por petición"))})
    return [
        b.paragraph(
            "<p><strong>What was measured.</strong> "
            f"{b.dataref('glm-5-3-flash', 'run-glm-5-3-flash', metric='e2e_p99', compare='count')} hosts serving "
            "GLM-5.3-Flash through OpenAI-compatible chat endpoints "
            + st(f"each answered the same {REQUESTS} small structured tasks", *claims["requests"])
            + ", one request at a time, with streaming on and low reasoning.</p><p><strong>How to use it.</strong> "
            + st("No single host is best on every metric: Baseten has the shortest tail latency but not the most "
                 "correct answers", *claims["split"]) + ". "
            "Choose the requirement that matters, rule out hosts that miss your accuracy or reliability bar, then "
            "compare tail latency among the rest.</p>",
            "<p><strong>Qué se midió.</strong> "
            f"{b.dataref('glm-5-3-flash', 'run-glm-5-3-flash', metric='e2e_p99', compare='count')} proveedores que "
            "sirven GLM-5.3-Flash mediante endpoints de chat compatibles con OpenAI "
            + st(f"respondieron cada uno las mismas {REQUESTS} tareas estructuradas pequeñas", *claims["requests"])
            + ", una petición cada vez, con streaming activado y razonamiento bajo.</p><p><strong>Cómo usarlo."
            "</strong> "
            + st("Ningún proveedor es el mejor en todas las métricas: Baseten tiene la menor latencia de cola, pero "
                 "no la mayor tasa de respuestas correctas", *claims["split"]) + ". "
            "Elige el requisito que importa, descarta los que no alcanzan tu "
            "umbral de precisión o fiabilidad y compara la latencia de cola entre los demás.</p>",
        ),
        b.heading("APIs used", "APIs utilizadas"),
        b.paragraph(
            "<p>The runner called each host with the model identifier below; each link opens the documentation "
            "used to check that host's adapter.</p>",
            "<p>El ejecutor llamó a cada proveedor con el identificador de modelo indicado; cada enlace abre la "
            "documentación usada para comprobar el adaptador de ese proveedor.</p>",
        ),
        b.endpoint_list(FLASH, RUN, order_by="e2e_p99"),
        b.heading("How the GLM-5.3-Flash hosts compare", "Cómo se comparan los proveedores de GLM-5.3-Flash"),
        b.paragraph(
            "<p>Besides the raw figures, two columns show each host's gap to the latency leader and to the "
            "accuracy leader.</p>",
            "<p>Además de las cifras, dos columnas muestran la distancia de cada proveedor al líder en latencia y "
            "al líder en precisión.</p>",
        ),
        b.provider_table(
            FLASH,
            RUN,
            ["e2e_p99", "ttft_p95", "tps_p95", "task_success", "failure_rate"],
            "e2e_p99",
            differences=["e2e_p99", "task_success"],
            name_style="full",
            show_api_model=True,
            cite_sources=False,
        ),
        b.heading("Provider by provider, in table order", "Proveedor a proveedor, en el orden de la tabla"),
        b.provider_list(FLASH, RUN, pattern="latency_scorecard", order_by="e2e_p99"),
        b.heading("Since the run: first token, day by day", "Después de la medición: primer token, día a día"),
        b.paragraph(
            "<p>A run is one afternoon. Our probe keeps sending the same kind of request to some of these hosts "
            "and publishes, twice a day, the median of the last 24 hours, so a change of speed shows up as a "
            "change of slope rather than as a surprise in the next run.</p>",
            "<p>Una medición es una tarde. Nuestra sonda sigue enviando el mismo tipo de petición a algunos de "
            "estos proveedores y publica dos veces al día la mediana de las últimas 24 horas, así que un cambio de "
            "velocidad se ve como un cambio de pendiente y no como una sorpresa en la siguiente medición.</p>",
        ),
        b.trend_chart(
            FLASH, PROBE, "ttft_median", 7,
            ("Each point is one rolling window of the probe; hover or focus a point for its window, or open the "
             "table for every value.",
             "Cada punto es una ventana móvil de la sonda; pasa el cursor o el foco por un punto para ver su "
             "ventana, o abre la tabla con todos los valores."),
        ),
        b.heading("What this comparison can inform", "Para qué sirve esta comparación"),
        b.paragraph(
            "<ul><li><strong>Short structured output:</strong> weigh task success and end-to-end p99.</li>"
            "<li><strong>Streaming interfaces:</strong> weigh time to first token p95 and the tokens-per-second "
            "floor.</li><li><strong>Failover between hosts:</strong> check identifiers and failure rates before "
            "treating two endpoints as interchangeable.</li></ul>",
            "<ul><li><strong>Salida estructurada corta:</strong> prioriza el éxito de tareas y el p99 de extremo a "
            "extremo.</li><li><strong>Interfaces en streaming:</strong> prioriza el TTFT p95 y el mínimo de tokens "
            "por segundo.</li><li><strong>Conmutación entre proveedores:</strong> revisa identificadores y tasas de "
            "fallo antes de tratar dos endpoints como intercambiables.</li></ul>",
        ),
        b.methodology(
            ("How latency and accuracy were measured", "Cómo se midieron la latencia y la precisión"),
            (
                "<ul><li>Same model on every row; only the hosting layer changes.</li><li>Same request on every "
                "endpoint: the settings the run recorded are listed below this text.</li><li>Timings come from the "
                "client clock and visible tokens are counted with the tokenizer named below, not the host's usage "
                "report.</li><li>An answer counts as a success only when it is "
                "schema-valid and exactly right; timeouts, HTTP errors and malformed replies stay in the "
                "denominator.</li><li>Serverless endpoints only.</li></ul>",
                "<ul><li>El mismo modelo en todas las filas; solo cambia la capa de alojamiento.</li><li>La misma "
                "petición en cada endpoint: los ajustes que registró la medición aparecen bajo este texto.</li>"
                "<li>Los tiempos salen del reloj del cliente y los tokens visibles se cuentan con el tokenizador "
                "indicado abajo, no con el informe de uso del proveedor.</li><li>Una respuesta solo cuenta como éxito si cumple el esquema y es exactamente "
                "correcta; los tiempos agotados, los errores HTTP y las respuestas mal formadas siguen en el "
                "denominador.</li><li>Solo endpoints serverless.</li></ul>",
            ),
            # Citing the run's source renders the settings it froze, so this text cannot drift from them.
            citations=("run-glm-5-3-flash",),
        ),
        b.faq(
            ("Choosing a GLM-5.3-Flash host", "Elegir un proveedor de GLM-5.3-Flash"),
            [((q_en, q_es), (a_en, a_es)) for q_en, q_es, a_en, a_es in faq],
        ),
        b.related_links(("Same data, other questions", "Los mismos datos, otras preguntas"), links),
        b.sources(("Sources", "Fuentes")),  # the run and the probe series
    ]


def scorecard_summary(data):
    """"Ten hosts" and "600 requests each" are claims about the run: checked statements, false the day the
    run has another count."""
    st = DemoStatements(DemoBlocks("en", data))
    ten = st.count("glm-5-3-flash", "eq", 10, metric="e2e_p99", source="run-glm-5-3-flash")
    each = run_claims(st)["requests"]
    return {
        "en": "<p>" + st("Ten hosts", ten) + ", one model, " + st(f"{REQUESTS} identical requests each", *each)
        + ": tail latency, streaming speed, exact task success and failures, kept in separate columns.</p>",
        "es": "<p>" + st("Diez proveedores", ten) + ", un modelo y "
        + st(f"{REQUESTS} peticiones idénticas a cada uno", *each)
        + ": latencia de cola, velocidad en streaming, éxito exacto de tareas y fallos, cada uno en su columna.</p>",
    }

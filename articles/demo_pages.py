"""The demo articles, composed from blocks. Each body is built once per language from the same
structure, so the Spanish StreamField mirrors the English one block for block."""

from benchmarks.demo_data import ARTICLE_SOURCES

NOTE_SCALED = (
    "Each chart is scaled to its own model: compare bar lengths within a chart, not between charts, "
    "because the benchmark runs every model at a different effort setting.",
    "Cada gráfico usa la escala de su propio modelo: compara las barras dentro de un gráfico y no entre "
    "gráficos, porque el benchmark ejecuta cada modelo con un nivel de esfuerzo distinto.",
)
NOTE_ACCURACY = (
    "<p>Only GLM-5.3 and GPT-OSS 120B have an Endpoint Accuracy Index in this set of models; the dash in the "
    "accuracy column means the benchmark has not scored that model yet.</p>",
    "<p>En este grupo de modelos solo GLM-5.3 y GPT-OSS 120B tienen Endpoint Accuracy Index; el guion en esa "
    "columna indica que el benchmark aún no ha puntuado ese modelo.</p>",
)


def _t(lang, pair):
    return pair[0] if lang == "en" else pair[1]


def fastest_api_body(lang, data):
    m, s, e = data["models"], data["sources"], data["endpoints"]

    def table(model, source):
        return {
            "type": "provider_table",
            "value": {
                "model": m[model].pk,
                "source": s[source].pk,
                "columns": [
                    {"field": "output_speed_median", "difference_to_leader": False},
                    {"field": "ttfc_median", "difference_to_leader": False},
                    {"field": "accuracy_index", "difference_to_leader": False},
                    {"field": "price", "difference_to_leader": False},
                ],
                "sort_metric": "output_speed_median",
                "name_style": "short",
                "show_api_model": False,
                "cite_sources": True,
                "caption": "",
            },
        }

    def chart(model, source):
        return {
            "type": "bar_chart",
            "value": {"model": m[model].pk, "source": s[source].pk, "metric": "output_speed_median",
                      "name_style": "short", "note": _t(lang, NOTE_SCALED)},
        }

    def heading(en, es):
        return {"type": "heading", "value": {"text": _t(lang, (en, es)), "level": "h2", "anchor": ""}}

    def paragraph(en, es):
        return {"type": "paragraph", "value": _t(lang, (en, es))}

    def dataref(model, source, metric="output_speed_median", compare=""):
        """A live figure in prose: the page prints the current published value, never a typed one."""
        return (
            f'<embed embedtype="dataref" model="{m[model].pk}" source="{s[source].pk}" metric="{metric}"'
            f' compare="{compare}"/>'
        )

    def note(pair):
        return {"type": "note", "value": {"style": "note", "text": _t(lang, pair), "citations": []}}

    def pick(need, model, source, compare=None, extra=()):
        return {"need": need, "model": m[model].pk, "source": s[source].pk,
                "compare_with": compare.pk if compare else None, "extra_citations": [s[x].pk for x in extra]}

    def card(provider, summary, strengths, limitations):
        return {"provider": data["providers"][provider].pk, "summary": _t(lang, summary),
                "strengths": _t(lang, strengths), "limitations": _t(lang, limitations)}

    return [
        {"type": "picks_table", "value": {"caption": "", "rows": [
            pick("fastest", "glm-5-3", "aa-glm-5-3"),
            pick("fastest", "deepseek-v4-1-flash-1017", "aa-deepseek-v4-1-flash-1017"),
            pick("fastest", "glm-5-3-flash", "aa-glm-5-3-flash"),
            pick("fastest", "gpt-oss-120b", "aa-gpt-oss-120b"),
            pick("shortest_first_chunk", "deepseek-v4-1-flash-1017", "aa-deepseek-v4-1-flash-1017",
                 compare=e[("baseten", "deepseek-v4-1-flash-1017", "")]),
            pick("highest_accuracy", "glm-5-3", "aa-glm-5-3", compare=e[("novita-ai", "glm-5-3", "")],
                 extra=["zai-pricing"]),
        ]}},
        heading("How to read these rankings", "Cómo leer estas clasificaciones"),
        paragraph(
            "<p>Every speed figure here is a provider median published by Artificial Analysis for a long prompt "
            "of ten thousand input tokens. Output speed counts generated tokens per second; first chunk is the "
            "wait before anything streams back, with reasoning time left out. The benchmark runs each model at its "
            "own headline effort, so hosts are ranked against each other inside one model and never across "
            "models.</p><p>A host that sells a model but has no benchmark row for it is simply absent from that "
            "model's table: Fireworks, for instance, is not measured on GLM-5.3.</p>",
            "<p>Todas las cifras de velocidad son medianas por proveedor publicadas por Artificial Analysis para un "
            "prompt largo de diez mil tokens de entrada. La velocidad de salida cuenta tokens generados por segundo; "
            "el primer fragmento es la espera hasta que empieza a llegar la respuesta, sin contar el razonamiento. "
            "El benchmark ejecuta cada modelo con su propio esfuerzo de referencia, así que los proveedores se "
            "comparan dentro de un mismo modelo y nunca entre modelos.</p><p>Si un proveedor vende un modelo pero "
            "el benchmark no lo mide, no aparece en la tabla de ese modelo: Fireworks, por ejemplo, no está medido "
            "en GLM-5.3.</p>",
        ),
        heading("GLM-5.3 output speed", "Velocidad de salida de GLM-5.3"),
        paragraph(
            "<p>Six hosts are measured and one stands well ahead. The leader is Baseten's premium tier, which is "
            "sold as a separate, more expensive product, so weigh it against the standard routes on price as well "
            "as on speed.</p>",
            "<p>Se miden seis proveedores y uno va claramente por delante. El líder es el nivel prémium de Baseten, "
            "que se vende como un producto aparte y más caro, así que conviene compararlo con las rutas estándar "
            "también por precio y no solo por velocidad.</p>",
        ),
        table("glm-5-3", "aa-glm-5-3"),
        chart("glm-5-3", "aa-glm-5-3"),
        note(NOTE_ACCURACY),
        heading("DeepSeek V4.1 Flash 1017 output speed", "Velocidad de salida de DeepSeek V4.1 Flash 1017"),
        paragraph(
            "<p>Seven hosts, and the widest gap between first and last of the current models: the fastest runs at "
            f"{dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='slowest')} the speed of "
            "the slowest, even though every row runs the same model under the same benchmark configuration.</p>",
            "<p>Siete proveedores y la mayor distancia entre el primero y el último de los modelos actuales: el más "
            f"rápido va a {dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='slowest')} "
            "la velocidad del más lento, aunque todas las filas ejecutan el mismo modelo con la misma "
            "configuración del benchmark.</p>",
        ),
        table("deepseek-v4-1-flash-1017", "aa-deepseek-v4-1-flash-1017"),
        chart("deepseek-v4-1-flash-1017", "aa-deepseek-v4-1-flash-1017"),
        note(NOTE_ACCURACY),
        heading("GLM-5.3-Flash output speed", "Velocidad de salida de GLM-5.3-Flash"),
        paragraph(
            "<p>Seven hosts again. This is the one current model on which the benchmark measures CoreWeave, and "
            "CoreWeave tops the table.</p>",
            "<p>De nuevo siete proveedores. Es el único modelo actual en el que el benchmark mide a CoreWeave, y "
            "CoreWeave encabeza la tabla.</p>",
        ),
        table("glm-5-3-flash", "aa-glm-5-3-flash"),
        chart("glm-5-3-flash", "aa-glm-5-3-flash"),
        note(NOTE_ACCURACY),
        heading(
            "The GPT-OSS 120B baseline: where Groq, Cerebras and SambaNova rank",
            "La referencia GPT-OSS 120B: dónde quedan Groq, Cerebras y SambaNova",
        ),
        paragraph(
            "<p>None of the three specialised-hardware hosts serves the newer models above. The older GPT-OSS 120B "
            "stays on the page as a baseline because it is the only model on which all three are measured side by "
            "side with the general-purpose hosts.</p>",
            "<p>Ninguno de los tres proveedores con hardware especializado sirve los modelos más nuevos de arriba. "
            "GPT-OSS 120B sigue en la página como referencia porque es el único modelo en el que los tres se miden "
            "junto a los proveedores generalistas.</p>",
        ),
        table("gpt-oss-120b", "aa-gpt-oss-120b"),
        chart("gpt-oss-120b", "aa-gpt-oss-120b"),
        heading("Provider by provider across the current models", "Proveedor a proveedor en los modelos actuales"),
        paragraph(
            "<p>The cards are sorted by each host's best output speed on any of the three current models, "
            "counting every tier it sells. The figures on a card are its standard tier; a dash means the "
            "benchmark has no row for that host on that model. The baseline-only hosts have no card.</p>",
            "<p>Las fichas se ordenan por la mejor velocidad de salida de cada proveedor en cualquiera de los tres "
            "modelos actuales, contando todos sus niveles. Las cifras de cada ficha son las de su nivel estándar; "
            "un guion indica que el benchmark no mide a ese proveedor en ese modelo. Los proveedores que solo "
            "aparecen en la referencia no tienen ficha.</p>",
        ),
        {"type": "provider_cards", "value": {
            "metric": "output_speed_median",
            "models": [
                {"model": m["glm-5-3"].pk, "source": s["aa-glm-5-3"].pk},
                {"model": m["deepseek-v4-1-flash-1017"].pk, "source": s["aa-deepseek-v4-1-flash-1017"].pk},
                {"model": m["glm-5-3-flash"].pk, "source": s["aa-glm-5-3-flash"].pk},
            ],
            "cards": [
                card("baseten",
                     ("Leads two of the three current models, both times through its premium Fast tier.",
                      "Lidera dos de los tres modelos actuales, en ambos casos con su nivel prémium Fast."),
                     ("<p>The Fast tier gives the quickest start of any current model in this comparison and tops "
                      "the speed ranking on GLM-5.3 and on DeepSeek V4.1 Flash 1017.</p>",
                      "<p>El nivel Fast ofrece el arranque más rápido de todos los modelos actuales de esta "
                      "comparativa y encabeza la velocidad en GLM-5.3 y en DeepSeek V4.1 Flash 1017.</p>"),
                     ("<p>That speed costs extra: the Fast tier is priced above the standard one, and on GLM-5.3 it "
                      "scores a little lower on the accuracy index than the standard tier.</p>",
                      "<p>Esa velocidad se paga: el nivel Fast cuesta más que el estándar y, en GLM-5.3, puntúa algo "
                      "menos en el índice de precisión que el nivel estándar.</p>")),
                card("together-ai",
                     ("The steadiest host here: runner-up on output speed for every current model.",
                      "El proveedor más regular: segundo en velocidad de salida en todos los modelos actuales."),
                     ("<p>Fast on all three current models, with the shortest first chunk measured on GLM-5.3.</p>",
                      "<p>Rápido en los tres modelos actuales y con el primer fragmento más corto medido en "
                      "GLM-5.3.</p>"),
                     ("<p>It never takes first place on speed, and on GLM-5.3 two other hosts score higher on the "
                      "accuracy index.</p>",
                      "<p>Nunca queda primero en velocidad y, en GLM-5.3, otros dos proveedores puntúan más alto en "
                      "el índice de precisión.</p>")),
                card("coreweave",
                     ("Fastest GLM-5.3-Flash host, and measured on no other current model.",
                      "El proveedor más rápido de GLM-5.3-Flash, y no se mide en ningún otro modelo actual."),
                     ("<p>A clear lead in output speed on GLM-5.3-Flash over every other measured host.</p>",
                      "<p>Una ventaja clara en velocidad de salida en GLM-5.3-Flash frente al resto de proveedores "
                      "medidos.</p>"),
                     ("<p>No benchmark rows for the other two current models, and its first chunk on GLM-5.3-Flash "
                      "is several times longer than the quickest host's.</p>",
                      "<p>No hay datos del benchmark para los otros dos modelos actuales, y su primer fragmento en "
                      "GLM-5.3-Flash es varias veces más largo que el del proveedor más rápido.</p>")),
                card("fireworks",
                     ("Middle of the field on the two current models where it is measured.",
                      "En mitad de la tabla en los dos modelos actuales en los que se mide."),
                     ("<p>On DeepSeek V4.1 Flash 1017 it outpaces DeepSeek's own API.</p>",
                      "<p>En DeepSeek V4.1 Flash 1017 supera a la propia API de DeepSeek.</p>"),
                     ("<p>A slow first chunk on GLM-5.3-Flash and no benchmark row on GLM-5.3.</p>",
                      "<p>Un primer fragmento lento en GLM-5.3-Flash y ningún dato del benchmark en GLM-5.3.</p>")),
                card("novita-ai",
                     ("Measured on all four models, ranking in the lower half on each.",
                      "Medido en los cuatro modelos, en la mitad baja de cada clasificación."),
                     ("<p>One of only three hosts with a benchmark row on every model in this article, and mid-table "
                      "on the GPT-OSS 120B baseline.</p>",
                      "<p>Uno de los tres únicos proveedores con datos del benchmark en todos los modelos de este "
                      "artículo, y a media tabla en la referencia GPT-OSS 120B.</p>"),
                     ("<p>Well behind the leaders on the current models, and the longest first chunk on "
                      "GLM-5.3-Flash.</p>",
                      "<p>Muy por detrás de los líderes en los modelos actuales, y con el primer fragmento más largo "
                      "en GLM-5.3-Flash.</p>")),
                card("z-ai",
                     ("Slow on GLM-5.3 but the most accurate endpoint for it.",
                      "Lento en GLM-5.3 pero el endpoint más preciso para ese modelo."),
                     ("<p>The top accuracy index score among the GLM-5.3 hosts.</p>",
                      "<p>La mejor puntuación del índice de precisión entre los proveedores de GLM-5.3.</p>"),
                     ("<p>Near the bottom of the GLM-5.3 speed ranking, with a long wait for the first chunk.</p>",
                      "<p>Cerca del final en velocidad de GLM-5.3, con una espera larga hasta el primer "
                      "fragmento.</p>")),
                card("deepinfra",
                     ("Second on GLM-5.3 accuracy, last on DeepSeek V4.1 Flash 1017 speed.",
                      "Segundo en precisión en GLM-5.3 y último en velocidad en DeepSeek V4.1 Flash 1017."),
                     ("<p>A high accuracy index on GLM-5.3 and one of the quicker first chunks on that model.</p>",
                      "<p>Un índice de precisión alto en GLM-5.3 y uno de los primeros fragmentos más rápidos en ese "
                      "modelo.</p>"),
                     ("<p>The slowest DeepSeek V4.1 Flash 1017 host measured; a promotional price currently softens "
                      "that.</p>",
                      "<p>El proveedor más lento medido en DeepSeek V4.1 Flash 1017; un precio promocional lo "
                      "compensa por ahora.</p>")),
            ],
        }},
        {"type": "methodology", "value": {
            "heading": _t(lang, ("Methodology and sources", "Metodología y fuentes")),
            "text": _t(lang, (
                "<p>Speed and first-chunk figures are Artificial Analysis provider medians, one snapshot per model, "
                "all on the same long-input workload. First chunk leaves reasoning out, so it reflects queueing and "
                "prefill rather than thinking. The accuracy index is relative to a reference endpoint of the same "
                "model. Prices are list rates for serverless input and output tokens, without cache discounts.</p>"
                "<p>A median is not a promise: hosts move between snapshots, and routing, batching and load all "
                "shift the numbers. Hosts are ranked inside each model only; equal speeds keep the order the "
                "benchmark lists them in. The publisher of this page is one of the ranked hosts and uses only public "
                "data here.</p>",
                "<p>Las cifras de velocidad y de primer fragmento son medianas por proveedor de Artificial Analysis, "
                "una instantánea por modelo, todas con la misma carga de entrada larga. El primer fragmento no "
                "incluye el razonamiento, así que refleja la cola y el prellenado y no el tiempo de pensar. El "
                "índice de precisión es relativo a un endpoint de referencia del mismo modelo. Los precios son "
                "tarifas públicas serverless por tokens de entrada y salida, sin descuentos de caché.</p>"
                "<p>Una mediana no es una promesa: los proveedores cambian entre instantáneas, y el enrutado, el "
                "procesamiento por lotes y la carga mueven las cifras. Los proveedores solo se comparan dentro de "
                "cada modelo; a igual velocidad se mantiene el orden del benchmark. El editor de esta página es uno "
                "de los proveedores clasificados y aquí solo usa datos públicos.</p>",
            )),
            "citations": [s["aa-glm-5-3"].pk, s["aa-deepseek-v4-1-flash-1017"].pk,
                          s["aa-glm-5-3-flash"].pk, s["aa-gpt-oss-120b"].pk],
        }},
        {"type": "sources", "value": {"heading": _t(lang, ("Sources", "Fuentes"))}},
        {"type": "call_to_action", "value": {
            "heading": _t(lang, ("Try the models yourself", "Prueba los modelos tú mismo")),
            "text": _t(lang, ("Get an API key and point your client at any of the models above.",
                              "Consigue una clave de API y conecta tu cliente a cualquiera de estos modelos.")),
            "button_text": _t(lang, ("Get an API key", "Obtener una clave de API")),
            "url": "https://novita.ai/",
        }},
    ]


def scorecard_body(lang, data, fastest_page=None):
    m, s = data["models"], data["sources"]
    run = s["run-glm-5-3-flash"].pk
    flash = m["glm-5-3-flash"].pk

    def heading(en, es):
        return {"type": "heading", "value": {"text": _t(lang, (en, es)), "level": "h2", "anchor": ""}}

    def paragraph(en, es):
        return {"type": "paragraph", "value": _t(lang, (en, es))}

    faq = [
        ("Is there one GLM-5.3-Flash host that wins every metric?",
         "¿Hay un proveedor de GLM-5.3-Flash que gane en todas las métricas?",
         "<p>No. The host with the shortest tail latency is not the one with the most correct answers, so the "
         "scorecard keeps each metric in its own column instead of folding them into a single score.</p>",
         "<p>No. El proveedor con la menor latencia de cola no es el que más respuestas correctas da, por eso la "
         "tabla mantiene cada métrica en su columna en lugar de reducirlas a una sola puntuación.</p>"),
        ("How do I pick a host from this table?", "¿Cómo elijo un proveedor con esta tabla?",
         "<p>Decide which requirement matters most, drop the rows that fall short on task success or failure "
         "rate, then compare end-to-end p99 among the hosts that remain.</p>",
         "<p>Decide qué requisito importa más, descarta las filas que no llegan en éxito de tareas o tasa de fallos "
         "y compara el p99 de extremo a extremo entre los proveedores que queden.</p>"),
        ("Which column tells me which host is fastest?", "¿Qué columna indica el proveedor más rápido?",
         "<p>For an application that waits for the whole answer, read end-to-end p99. For a streaming interface, "
         "read time to first token p95 and the tokens-per-second floor. The leaders can differ.</p>",
         "<p>Si tu aplicación espera la respuesta completa, mira el p99 de extremo a extremo. Si muestra la "
         "respuesta en streaming, mira el TTFT p95 y el mínimo de tokens por segundo. Los líderes pueden ser "
         "distintos.</p>"),
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
                  "text": _t(lang, ("Runner and per-request records", "Ejecutor y registros por petición"))})
    return [
        paragraph(
            "<p><strong>What was measured.</strong> Ten hosts serving GLM-5.3-Flash through OpenAI-compatible chat "
            "endpoints each answered the same 600 small structured tasks, one request at a time, with streaming on "
            "and low reasoning.</p><p><strong>How to use it.</strong> No single host is best on every metric. "
            "Choose the requirement that matters, rule out hosts that miss your accuracy or reliability bar, then "
            "compare tail latency among the rest.</p>",
            "<p><strong>Qué se midió.</strong> Diez proveedores que sirven GLM-5.3-Flash mediante endpoints de chat "
            "compatibles con OpenAI respondieron las mismas 600 tareas estructuradas pequeñas, una petición cada "
            "vez, con streaming activado y razonamiento bajo.</p><p><strong>Cómo usarlo.</strong> Ningún proveedor "
            "es el mejor en todas las métricas. Elige el requisito que importa, descarta los que no alcanzan tu "
            "umbral de precisión o fiabilidad y compara la latencia de cola entre los demás.</p>",
        ),
        heading("APIs used", "APIs utilizadas"),
        paragraph(
            "<p>The runner called each host with the model identifier below; each link opens the documentation "
            "used to check that host's adapter.</p>",
            "<p>El ejecutor llamó a cada proveedor con el identificador de modelo indicado; cada enlace abre la "
            "documentación usada para comprobar el adaptador de ese proveedor.</p>",
        ),
        {"type": "endpoint_list", "value": {"model": flash, "source": run, "order_by": "e2e_p99", "name_style": "full"}},
        heading("How the GLM-5.3-Flash hosts compare", "Cómo se comparan los proveedores de GLM-5.3-Flash"),
        paragraph(
            "<p>Besides the raw figures, two columns show each host's gap to the latency leader and to the "
            "accuracy leader.</p>",
            "<p>Además de las cifras, dos columnas muestran la distancia de cada proveedor al líder en latencia y "
            "al líder en precisión.</p>",
        ),
        {"type": "provider_table", "value": {
            "model": flash, "source": run,
            "columns": [
                {"field": "e2e_p99", "difference_to_leader": True},
                {"field": "ttft_p95", "difference_to_leader": False},
                {"field": "tps_p95", "difference_to_leader": False},
                {"field": "task_success", "difference_to_leader": True},
                {"field": "failure_rate", "difference_to_leader": False},
            ],
            "sort_metric": "e2e_p99", "name_style": "full", "show_api_model": True, "cite_sources": False,
            "caption": "",
        }},
        heading("Provider by provider, in table order", "Proveedor a proveedor, en el orden de la tabla"),
        {"type": "provider_list", "value": {
            "model": flash, "source": run, "pattern": "latency_scorecard", "order_by": "e2e_p99", "name_style": "full",
        }},
        heading("What this comparison can inform", "Para qué sirve esta comparación"),
        paragraph(
            "<ul><li><strong>Short structured output:</strong> weigh task success and end-to-end p99.</li>"
            "<li><strong>Streaming interfaces:</strong> weigh time to first token p95 and the tokens-per-second "
            "floor.</li><li><strong>Failover between hosts:</strong> check identifiers and failure rates before "
            "treating two endpoints as interchangeable.</li></ul>",
            "<ul><li><strong>Salida estructurada corta:</strong> prioriza el éxito de tareas y el p99 de extremo a "
            "extremo.</li><li><strong>Interfaces en streaming:</strong> prioriza el TTFT p95 y el mínimo de tokens "
            "por segundo.</li><li><strong>Conmutación entre proveedores:</strong> revisa identificadores y tasas de "
            "fallo antes de tratar dos endpoints como intercambiables.</li></ul>",
        ),
        {"type": "methodology", "value": {
            "heading": _t(lang, ("How latency and accuracy were measured", "Cómo se midieron la latencia y la precisión")),
            "text": _t(lang, (
                "<ul><li>Same model on every row; only the hosting layer changes.</li><li>Same request: one-turn "
                "JSON-mode chat completion, temperature 0, top-p 1, a 256-token cap, a 20-second timeout, "
                "concurrency one.</li><li>Timings come from the client clock and visible tokens are counted with a "
                "fixed tokenizer, not the host's usage report.</li><li>An answer counts as a success only when it is "
                "schema-valid and exactly right; timeouts, HTTP errors and malformed replies stay in the "
                "denominator.</li><li>Serverless endpoints only.</li></ul>",
                "<ul><li>El mismo modelo en todas las filas; solo cambia la capa de alojamiento.</li><li>La misma "
                "petición: una sola vuelta de chat en modo JSON, temperatura 0, top-p 1, un límite de 256 tokens, "
                "un tiempo máximo de 20 segundos y concurrencia uno.</li><li>Los tiempos salen del reloj del "
                "cliente y los tokens visibles se cuentan con un tokenizador fijo, no con el informe de uso del "
                "proveedor.</li><li>Una respuesta solo cuenta como éxito si cumple el esquema y es exactamente "
                "correcta; los tiempos agotados, los errores HTTP y las respuestas mal formadas siguen en el "
                "denominador.</li><li>Solo endpoints serverless.</li></ul>",
            )),
            "citations": [],
        }},
        {"type": "faq", "value": {
            "heading": _t(lang, ("Choosing a GLM-5.3-Flash host", "Elegir un proveedor de GLM-5.3-Flash")),
            "items": [{"question": _t(lang, (q_en, q_es)), "answer": _t(lang, (a_en, a_es))}
                      for q_en, q_es, a_en, a_es in faq],
        }},
        {"type": "related_links", "value": {
            "heading": _t(lang, ("Same data, other questions", "Los mismos datos, otras preguntas")), "links": links,
        }},
        {"type": "sources", "value": {"heading": _t(lang, ("Source", "Fuente"))}},
    ]


ARTICLE_SOURCE_KEYS = [key for key, *_rest in ARTICLE_SOURCES]

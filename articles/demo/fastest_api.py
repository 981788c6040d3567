"""The demo article "Fastest LLM API": per-model speed tables and charts from Artificial Analysis
snapshots, picks, provider cards and prices from the providers' pages."""

from benchmarks.demo_data import AA_TABLES, ARTICLE_SOURCES

from .blocks import DemoBlocks
from .statements import EVERY_OTHER, DemoStatements

CURRENT = ["glm-5-3", "deepseek-v4-1-flash-1017", "glm-5-3-flash"]
EVERY_MODEL = CURRENT + ["gpt-oss-120b"]
ACCURACY = "accuracy_index"
TTFC = "ttfc_median"
FAST = ("baseten", "Fast")
STANDARD = ("baseten", "")
PRICE_SIDES = ("price_input", "price_output")
# Every host the benchmark ranks on the article's models, tier by tier.
RANKED_HOSTS = sorted({(row[0], row[1]) for _source, rows in AA_TABLES.values() for row in rows})


# Footnote order of the article: the four benchmark snapshots, then the providers' price pages.
ARTICLE_SOURCE_KEYS = [key for key, *_rest in ARTICLE_SOURCES]
AA_SOURCES = ["aa-glm-5-3", "aa-deepseek-v4-1-flash-1017", "aa-glm-5-3-flash", "aa-gpt-oss-120b"]
SPEED_TABLE_COLUMNS = ["output_speed_median", "ttfc_median", "accuracy_index", "price"]

NOTE_FRONTIER = (
    "The line joins the hosts that no other host beats on both price and speed; for any host off the line, "
    "one on it is at least as fast for no more money.",
    "La línea une a los proveedores que ningún otro supera a la vez en precio y en velocidad; para cualquier "
    "proveedor fuera de la línea, uno de ella es al menos igual de rápido por el mismo dinero o menos.",
)
NOTE_SCALED = (
    "Each chart is scaled to its own model: compare bar lengths within a chart, not between charts, "
    "because the benchmark runs every model at a different effort setting.",
    "Cada gráfico usa la escala de su propio modelo: compara las barras dentro de un gráfico y no entre "
    "gráficos, porque el benchmark ejecuta cada modelo con un nivel de esfuerzo distinto.",
)


def note_accuracy(st):
    scored = st("Only GLM-5.3 and GPT-OSS 120B have an Endpoint Accuracy Index in this set of models",
                st.count("glm-5-3", "ge", 1, ACCURACY), st.count("gpt-oss-120b", "ge", 1, ACCURACY),
                st.count("deepseek-v4-1-flash-1017", "eq", 0, ACCURACY), st.count("glm-5-3-flash", "eq", 0, ACCURACY))
    scored_es = st("En este grupo de modelos solo GLM-5.3 y GPT-OSS 120B tienen Endpoint Accuracy Index",
                   st.count("glm-5-3", "ge", 1, ACCURACY), st.count("gpt-oss-120b", "ge", 1, ACCURACY),
                   st.count("deepseek-v4-1-flash-1017", "eq", 0, ACCURACY),
                   st.count("glm-5-3-flash", "eq", 0, ACCURACY))
    return (
        f"<p>{scored}; the dash in the accuracy column means the benchmark has not scored that model yet.</p>",
        f"<p>{scored_es}; el guion en esa columna indica que el benchmark aún no ha puntuado ese modelo.</p>",
    )


def fastest_api_body(lang, data):
    b = DemoBlocks(lang, data)
    st = DemoStatements(b)
    NOTE_ACCURACY = note_accuracy(st)  # noqa: N806 (the note's text, as the constant it was)
    not_on_glm = st.measured("fireworks", "glm-5-3", source="aa-glm-5-3", neg=True)
    # "One stands well ahead": the leader at least 1.5 times as fast as every other host measured.
    # Every other host is whoever the data measures when the page renders: a host a refresh adds too.
    glm_lead = [st.leads(FAST, ["glm-5-3"], source="aa-glm-5-3"),
                st.faster(FAST, EVERY_OTHER, "glm-5-3", factor="1.5", source="aa-glm-5-3")]
    premium_lead = [glm_lead[0]] + [st.cheaper(STANDARD, FAST, "glm-5-3", side) for side in PRICE_SIDES]
    coreweave_only_flash = [st.measured("coreweave", model, neg=True) for model in CURRENT[:2]]
    hardware = ("groq", "cerebras", "sambanova")
    hardware_absent = [st.measured(host, model, neg=True) for host in hardware for model in CURRENT]
    hardware_baseline = [st.measured(host, "gpt-oss-120b") for host in hardware]
    standard = STANDARD
    fast_models = ["glm-5-3", "deepseek-v4-1-flash-1017"]  # the current models the Fast tier is measured on
    # "Leads two of the three current models, both times through its premium Fast tier": the
    # standard tier leads none, or Baseten would lead more than two.
    fast_two = [st.leads(FAST, CURRENT, q="exactly", n=2), st.leads(standard, CURRENT, q="exactly", n=0)]
    fast_start = [st.leads(FAST, ["deepseek-v4-1-flash-1017"], metric=TTFC)]
    fast_tops = st.leads(FAST, fast_models)
    # "That speed costs extra: the Fast tier is priced above the standard one", wherever both are sold.
    fast_costs = [st.faster(FAST, standard, m) for m in fast_models] + [
        st.cheaper(standard, FAST, m, side) for m in fast_models for side in PRICE_SIDES]
    fast_accuracy = st.faster(standard, FAST, "glm-5-3", metric=ACCURACY)
    together_leads_none = st.leads("together-ai", CURRENT, q="exactly", n=0)
    together_second = [st.rank("together-ai", m, 2) for m in CURRENT] + [together_leads_none]
    together_start = st.leads("together-ai", ["glm-5-3"], metric=TTFC)
    together_fast = [st.rank("together-ai", m, 3) for m in CURRENT]
    together_third = [st.rank("together-ai", "glm-5-3", 3, metric=ACCURACY),
                      st.rank("together-ai", "glm-5-3", 2, metric=ACCURACY, neg=True)]
    # "7 hosts again": GLM-5.3-Flash has as many hosts as DeepSeek V4.1 Flash 1017, the model before it
    # (the number itself is a data reference; the vocabulary compares counts with a number).
    seven_again = [st.count("glm-5-3-flash", "eq", 7, source="aa-glm-5-3-flash"),
                   st.count("deepseek-v4-1-flash-1017", "eq", 7, source="aa-deepseek-v4-1-flash-1017")]
    coreweave_leads = st.leads("coreweave", ["glm-5-3-flash"], source="aa-glm-5-3-flash")
    coreweave_clear = [coreweave_leads,  # "a clear lead … over every other measured host"
                       st.faster("coreweave", EVERY_OTHER, "glm-5-3-flash", factor="1.5")]
    coreweave_slow_start = st.faster("coreweave", standard, "glm-5-3-flash", metric=TTFC, factor="3", slower=True)
    fireworks_on = ["deepseek-v4-1-flash-1017", "glm-5-3-flash"]
    fireworks_middle = [c for m in fireworks_on for c in (st.rank("fireworks", m, 5), st.rank("fireworks", m, 1, neg=True))]
    fireworks_middle += [not_on_glm]
    fireworks_outpaces = st.faster("fireworks", "deepseek", "deepseek-v4-1-flash-1017")
    fireworks_slow_start = st.rank("fireworks", "glm-5-3-flash", 4, metric=TTFC, neg=True)
    on_every_model = [st.measured(host, m) for host in ("novita-ai", "together-ai", "deepinfra") for m in EVERY_MODEL]
    novita_measured = on_every_model[:4]
    # "Outside the top three": at least three hosts ahead of it (a rank needs a row: measured too).
    novita_lower = [st.rank("novita-ai", m, 3, neg=True) for m in EVERY_MODEL]
    novita_mid_baseline = [st.rank("novita-ai", "gpt-oss-120b", 5), st.rank("novita-ai", "gpt-oss-120b", 2, neg=True)]
    # "The longest first chunk": last, so no more hosts than the rank it is behind.
    novita_last_start = [st.rank("novita-ai", "glm-5-3-flash", 6, metric=TTFC, neg=True),
                         st.count("glm-5-3-flash", "le", 7, metric=TTFC)]
    zai_slow = [st.rank("z-ai", "glm-5-3", 3, neg=True)]
    zai_accurate = st.leads("z-ai", ["glm-5-3"], metric=ACCURACY)
    zai_wait = st.rank("z-ai", "glm-5-3", 3, metric=TTFC, neg=True)
    deepinfra_second = [st.rank("deepinfra", "glm-5-3", 2, metric=ACCURACY),
                        st.rank("deepinfra", "glm-5-3", 1, metric=ACCURACY, neg=True)]
    deepinfra_last = [st.count("deepseek-v4-1-flash-1017", "eq", 7),
                      st.rank("deepinfra", "deepseek-v4-1-flash-1017", 6, neg=True)]
    deepinfra_quick_start = st.rank("deepinfra", "glm-5-3", 3, metric=TTFC)
    deepinfra_cheapest = [st.cheaper("deepinfra", EVERY_OTHER, "deepseek-v4-1-flash-1017", side) for side in PRICE_SIDES]
    return [
        b.picks_table([
            b.pick("fastest", "glm-5-3", "aa-glm-5-3"),
            b.pick("fastest", "deepseek-v4-1-flash-1017", "aa-deepseek-v4-1-flash-1017"),
            b.pick("fastest", "glm-5-3-flash", "aa-glm-5-3-flash"),
            b.pick("fastest", "gpt-oss-120b", "aa-gpt-oss-120b"),
            b.pick("shortest_first_chunk", "deepseek-v4-1-flash-1017", "aa-deepseek-v4-1-flash-1017",
                 compare=("baseten", "deepseek-v4-1-flash-1017", "")),
            b.pick("highest_accuracy", "glm-5-3", "aa-glm-5-3", compare=("novita-ai", "glm-5-3", ""),
                 cite_price=True),
        ]),
        b.heading("How to read these rankings", "Cómo leer estas clasificaciones"),
        b.paragraph(
            "<p>Every speed figure here is a provider median published by Artificial Analysis for a long prompt "
            "of ten thousand input tokens. Output speed counts generated tokens per second; first chunk is the "
            "wait before anything streams back, with reasoning time left out. The benchmark runs each model at its "
            "own headline effort, so hosts are ranked against each other inside one model and never across "
            "models.</p><p>A host that sells a model but has no benchmark row for it is simply absent from that "
            f"model's table: {st('Fireworks, for instance, is not measured on GLM-5.3', not_on_glm)}.</p>",
            "<p>Todas las cifras de velocidad son medianas por proveedor publicadas por Artificial Analysis para un "
            "prompt largo de diez mil tokens de entrada. La velocidad de salida cuenta tokens generados por segundo; "
            "el primer fragmento es la espera hasta que empieza a llegar la respuesta, sin contar el razonamiento. "
            "El benchmark ejecuta cada modelo con su propio esfuerzo de referencia, así que los proveedores se "
            "comparan dentro de un mismo modelo y nunca entre modelos.</p><p>Si un proveedor vende un modelo pero "
            "el benchmark no lo mide, no aparece en la tabla de ese modelo: "
            f"{st('Fireworks, por ejemplo, no está medido en GLM-5.3', not_on_glm)}.</p>",
        ),
        b.heading("GLM-5.3 output speed", "Velocidad de salida de GLM-5.3"),
        b.paragraph(
            f"<p>Of the {b.dataref('glm-5-3', 'aa-glm-5-3', compare='count')} hosts measured, "
            f"{st('one stands well ahead', *glm_lead)}: {b.dataref('glm-5-3', 'aa-glm-5-3', compare='leader')}, "
            + st("Baseten's premium tier, which is sold as a separate, more expensive product, so weigh it against "
                 "the standard routes on price as well as on speed", *premium_lead)
            + ".</p>",
            f"<p>Se miden {b.dataref('glm-5-3', 'aa-glm-5-3', compare='count')} proveedores y "
            f"{st('uno va claramente por delante', *glm_lead)}: {b.dataref('glm-5-3', 'aa-glm-5-3', compare='leader')}, "
            + st("el nivel prémium de Baseten, que se vende como un producto aparte y más caro, así que conviene "
                 "compararlo con las rutas estándar también por precio y no solo por velocidad", *premium_lead)
            + ".</p>",
        ),
        b.provider_table("glm-5-3", "aa-glm-5-3", SPEED_TABLE_COLUMNS, "output_speed_median"),
        b.bar_chart("glm-5-3", "aa-glm-5-3", "output_speed_median", NOTE_SCALED),
        b.price_speed_scatter("glm-5-3", "aa-glm-5-3", NOTE_FRONTIER),
        b.note(NOTE_ACCURACY),
        b.heading("DeepSeek V4.1 Flash 1017 output speed", "Velocidad de salida de DeepSeek V4.1 Flash 1017"),
        b.paragraph(
            "<p>On DeepSeek V4.1 Flash 1017 the benchmark measures "
            f"{b.dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='count')} hosts, and the "
            "fastest runs at "
            f"{b.dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='slowest')} the speed of "
            "the slowest, even though every row runs the same model under the same benchmark configuration.</p>",
            "<p>En DeepSeek V4.1 Flash 1017 el benchmark mide "
            f"{b.dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='count')} proveedores, y el "
            f"más rápido va a {b.dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='slowest')} "
            "la velocidad del más lento, aunque todas las filas ejecutan el mismo modelo con la misma "
            "configuración del benchmark.</p>",
        ),
        b.provider_table("deepseek-v4-1-flash-1017", "aa-deepseek-v4-1-flash-1017", SPEED_TABLE_COLUMNS, "output_speed_median"),
        b.bar_chart("deepseek-v4-1-flash-1017", "aa-deepseek-v4-1-flash-1017", "output_speed_median", NOTE_SCALED),
        b.note(NOTE_ACCURACY),
        b.heading("GLM-5.3-Flash output speed", "Velocidad de salida de GLM-5.3-Flash"),
        b.paragraph(
            f"<p>{b.dataref('glm-5-3-flash', 'aa-glm-5-3-flash', compare='count')} " + st("hosts again", *seven_again)
            + ". "
            + st("This is the one current model on which the benchmark measures CoreWeave",
                 st.measured("coreweave", "glm-5-3-flash"), *coreweave_only_flash)
            + ", and the table's leader is "
            f"{b.dataref('glm-5-3-flash', 'aa-glm-5-3-flash', compare='leader')}.</p>",
            "<p>" + st("De nuevo", *seven_again)
            + f" {b.dataref('glm-5-3-flash', 'aa-glm-5-3-flash', compare='count')} proveedores. "
            + st("Es el único modelo actual en el que el benchmark mide a CoreWeave",
                 st.measured("coreweave", "glm-5-3-flash"), *coreweave_only_flash)
            + ", y la tabla la encabeza "
            f"{b.dataref('glm-5-3-flash', 'aa-glm-5-3-flash', compare='leader')}.</p>",
        ),
        b.provider_table("glm-5-3-flash", "aa-glm-5-3-flash", SPEED_TABLE_COLUMNS, "output_speed_median"),
        b.bar_chart("glm-5-3-flash", "aa-glm-5-3-flash", "output_speed_median", NOTE_SCALED),
        b.note(NOTE_ACCURACY),
        b.heading(
            "The GPT-OSS 120B baseline: where Groq, Cerebras and SambaNova rank",
            "La referencia GPT-OSS 120B: dónde quedan Groq, Cerebras y SambaNova",
        ),
        b.paragraph(
            "<p>" + st("None of the three specialised-hardware hosts serves the newer models above", *hardware_absent)
            + ". The older GPT-OSS 120B stays on the page as a baseline because "
            + st("it is the only model on which all three are measured side by side with the general-purpose hosts",
                 *hardware_baseline) + ".</p>",
            "<p>" + st("Ninguno de los tres proveedores con hardware especializado sirve los modelos más nuevos de "
                       "arriba", *hardware_absent)
            + ". GPT-OSS 120B sigue en la página como referencia porque "
            + st("es el único modelo en el que los tres se miden junto a los proveedores generalistas",
                 *hardware_baseline) + ".</p>",
        ),
        b.provider_table("gpt-oss-120b", "aa-gpt-oss-120b", SPEED_TABLE_COLUMNS, "output_speed_median"),
        b.bar_chart("gpt-oss-120b", "aa-gpt-oss-120b", "output_speed_median", NOTE_SCALED),
        b.heading("Provider by provider across the current models", "Proveedor a proveedor en los modelos actuales"),
        b.paragraph(
            "<p>The cards are sorted by each host's best output speed on any of the current models, "
            "counting every tier it sells. The figures on a card are its standard tier; a dash means the "
            "benchmark has no row for that host on that model. The baseline-only hosts have no card.</p>",
            "<p>Las fichas se ordenan por la mejor velocidad de salida de cada proveedor en cualquiera de los "
            "modelos actuales, contando todos sus niveles. Las cifras de cada ficha son las de su nivel estándar; "
            "un guion indica que el benchmark no mide a ese proveedor en ese modelo. Los proveedores que solo "
            "aparecen en la referencia no tienen ficha.</p>",
        ),
        b.provider_cards(
            "output_speed_median",
            [
                ("glm-5-3", "aa-glm-5-3"),
                ("deepseek-v4-1-flash-1017", "aa-deepseek-v4-1-flash-1017"),
                ("glm-5-3-flash", "aa-glm-5-3-flash"),
            ],
            [
                b.card("baseten",
                     (st("Leads two of the three current models, both times through its premium Fast tier.",
                         *fast_two),
                      st("Lidera dos de los tres modelos actuales, en ambos casos con su nivel prémium Fast.",
                         *fast_two)),
                     ("<p>" + st("The Fast tier has the shortest first chunk on DeepSeek V4.1 Flash 1017",
                                 *fast_start) + " and "
                      + st("tops the speed ranking on GLM-5.3 and on DeepSeek V4.1 Flash 1017", fast_tops) + ".</p>",
                      "<p>" + st("El nivel Fast tiene el primer fragmento más corto en DeepSeek V4.1 Flash 1017",
                                 *fast_start) + " y "
                      + st("encabeza la velocidad en GLM-5.3 y en DeepSeek V4.1 Flash 1017", fast_tops) + ".</p>"),
                     ("<p>" + st("That speed costs extra: the Fast tier is priced above the standard one", *fast_costs)
                      + ", and " + st("on GLM-5.3 it scores a little lower on the accuracy index than the standard "
                                      "tier", fast_accuracy) + ".</p>",
                      "<p>" + st("Esa velocidad se paga: el nivel Fast cuesta más que el estándar", *fast_costs)
                      + " y, " + st("en GLM-5.3, puntúa algo menos en el índice de precisión que el nivel estándar",
                                    fast_accuracy) + ".</p>")),
                b.card("together-ai",
                     (st("A steady second: runner-up on output speed for every current model", *together_second)
                      + ".",
                      st("Un segundo puesto constante: segundo en velocidad de salida en todos los modelos actuales",
                         *together_second) + "."),
                     ("<p>" + st("Fast on all three current models", *together_fast) + ", "
                      + st("with the shortest first chunk measured on GLM-5.3", together_start) + ".</p>",
                      "<p>" + st("Rápido en los tres modelos actuales", *together_fast) + " y "
                      + st("con el primer fragmento más corto medido en GLM-5.3", together_start) + ".</p>"),
                     ("<p>On output speed it ranks "
                      f"{b.dataref('glm-5-3', 'aa-glm-5-3', compare='rank', endpoint=('together-ai', ''))} on "
                      "GLM-5.3, "
                      f"{b.dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='rank', endpoint=('together-ai', ''))} "
                      "on DeepSeek V4.1 Flash 1017 and "
                      f"{b.dataref('glm-5-3-flash', 'aa-glm-5-3-flash', compare='rank', endpoint=('together-ai', ''))} "
                      "on GLM-5.3-Flash, " + st("leading none of them", together_leads_none) + ", and "
                      + st("on GLM-5.3 two other hosts score higher on the accuracy index", *together_third) + ".</p>",
                      "<p>En velocidad de salida queda "
                      f"{b.dataref('glm-5-3', 'aa-glm-5-3', compare='rank', endpoint=('together-ai', ''))} en "
                      "GLM-5.3, "
                      f"{b.dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='rank', endpoint=('together-ai', ''))} "
                      "en DeepSeek V4.1 Flash 1017 y "
                      f"{b.dataref('glm-5-3-flash', 'aa-glm-5-3-flash', compare='rank', endpoint=('together-ai', ''))} "
                      "en GLM-5.3-Flash, " + st("sin liderar ninguno de ellos", together_leads_none) + ", y "
                      + st("en GLM-5.3, otros dos proveedores puntúan más alto en el índice de precisión",
                           *together_third) + ".</p>")),
                b.card("coreweave",
                     (st("Fastest GLM-5.3-Flash host, and measured on no other current model.", coreweave_leads,
                         *coreweave_only_flash),
                      st("El proveedor más rápido de GLM-5.3-Flash, y no se mide en ningún otro modelo actual.",
                         coreweave_leads, *coreweave_only_flash)),
                     ("<p>" + st("A clear lead in output speed on GLM-5.3-Flash over every other measured host",
                                 *coreweave_clear) + ".</p>",
                      "<p>" + st("Una ventaja clara en velocidad de salida en GLM-5.3-Flash frente al resto de "
                                 "proveedores medidos", *coreweave_clear) + ".</p>"),
                     ("<p>" + st("No benchmark rows for the other two current models", *coreweave_only_flash)
                      + ", and " + st("its first chunk on GLM-5.3-Flash is several times longer than the quickest "
                                      "host's", coreweave_slow_start) + ".</p>",
                      "<p>" + st("No hay datos del benchmark para los otros dos modelos actuales", *coreweave_only_flash)
                      + ", y " + st("su primer fragmento en GLM-5.3-Flash es varias veces más largo que el del "
                                    "proveedor más rápido", coreweave_slow_start) + ".</p>")),
                b.card("fireworks",
                     (st("Middle of the field on the two current models where it is measured.", *fireworks_middle),
                      st("En mitad de la tabla en los dos modelos actuales en los que se mide.", *fireworks_middle)),
                     ("<p>" + st("On DeepSeek V4.1 Flash 1017 it outpaces DeepSeek's own API", fireworks_outpaces)
                      + ".</p>",
                      "<p>" + st("En DeepSeek V4.1 Flash 1017 supera a la propia API de DeepSeek", fireworks_outpaces)
                      + ".</p>"),
                     ("<p>" + st("A slow first chunk on GLM-5.3-Flash", fireworks_slow_start) + " and "
                      + st("no benchmark row on GLM-5.3", not_on_glm) + ".</p>",
                      "<p>" + st("Un primer fragmento lento en GLM-5.3-Flash", fireworks_slow_start) + " y "
                      + st("ningún dato del benchmark en GLM-5.3", not_on_glm) + ".</p>")),
                b.card("novita-ai",
                     (st("Measured on all four models, outside the top three on each.", *novita_measured,
                         *novita_lower),
                      st("Medido en los cuatro modelos, fuera de los tres primeros en cada uno.", *novita_measured,
                         *novita_lower)),
                     ("<p>" + st("With Together AI and DeepInfra, one of the hosts with a benchmark row on every model "
                                 "in this article", *on_every_model) + ", and "
                      + st("mid-table on the GPT-OSS 120B baseline", *novita_mid_baseline) + ".</p>",
                      "<p>" + st("Con Together AI y DeepInfra, uno de los proveedores con datos del benchmark en todos "
                                 "los modelos de este artículo", *on_every_model) + ", y "
                      + st("a media tabla en la referencia GPT-OSS 120B", *novita_mid_baseline) + ".</p>"),
                     ("<p>" + st("Well behind the leaders on the current models", *novita_lower[:3]) + ", and "
                      + st("the longest first chunk on GLM-5.3-Flash", *novita_last_start) + ".</p>",
                      "<p>" + st("Muy por detrás de los líderes en los modelos actuales", *novita_lower[:3]) + ", y "
                      + st("con el primer fragmento más largo en GLM-5.3-Flash", *novita_last_start) + ".</p>")),
                b.card("z-ai",
                     (st("Slow on GLM-5.3 but the most accurate endpoint for it.", *zai_slow, zai_accurate),
                      st("Lento en GLM-5.3 pero el endpoint más preciso para ese modelo.", *zai_slow, zai_accurate)),
                     ("<p>" + st("The top accuracy index score among the GLM-5.3 hosts", zai_accurate) + ".</p>",
                      "<p>" + st("La mejor puntuación del índice de precisión entre los proveedores de GLM-5.3",
                                 zai_accurate) + ".</p>"),
                     ("<p>" + st("Near the bottom of the GLM-5.3 speed ranking", *zai_slow) + ", "
                      + st("with a long wait for the first chunk", zai_wait) + ".</p>",
                      "<p>" + st("Cerca del final en velocidad de GLM-5.3", *zai_slow) + ", "
                      + st("con una espera larga hasta el primer fragmento", zai_wait) + ".</p>")),
                b.card("deepinfra",
                     (st("Second on GLM-5.3 accuracy, last on DeepSeek V4.1 Flash 1017 speed.", *deepinfra_second,
                         *deepinfra_last),
                      st("Segundo en precisión en GLM-5.3 y último en velocidad en DeepSeek V4.1 Flash 1017.",
                         *deepinfra_second, *deepinfra_last)),
                     ("<p>" + st("A high accuracy index on GLM-5.3", *deepinfra_second) + " and "
                      + st("one of the quicker first chunks on that model", deepinfra_quick_start) + ".</p>",
                      "<p>" + st("Un índice de precisión alto en GLM-5.3", *deepinfra_second) + " y "
                      + st("uno de los primeros fragmentos más rápidos en ese modelo", deepinfra_quick_start)
                      + ".</p>"),
                     ("<p>" + st("The slowest DeepSeek V4.1 Flash 1017 host measured", *deepinfra_last)
                      + "; " + st("it also has the lowest list price on that model", *deepinfra_cheapest) + ".</p>",
                      "<p>" + st("El proveedor más lento medido en DeepSeek V4.1 Flash 1017", *deepinfra_last)
                      + "; " + st("también tiene el precio de lista más bajo en ese modelo", *deepinfra_cheapest)
                      + ".</p>")),
            ],
        ),
        b.methodology(
            ("Methodology and sources", "Metodología y fuentes"),
            (
                "<p>Speed and first-chunk figures are Artificial Analysis provider medians, one snapshot per model, "
                "all on the same long-input workload. First chunk leaves reasoning out, so it reflects queueing and "
                "prefill rather than thinking. The accuracy index is relative to a reference endpoint of the same "
                "model. Prices are list rates for serverless input and output tokens, without cache discounts.</p>"
                "<p>A median is not a promise: hosts move between snapshots, and routing, batching and load all "
                "shift the numbers. Hosts are ranked inside each model only; equal speeds keep the order the "
                "benchmark lists them in. "
                + st("The publisher of this page, Novita AI, is ranked on every model here", *novita_measured)
                + " and uses only public data.</p>",
                "<p>Las cifras de velocidad y de primer fragmento son medianas por proveedor de Artificial Analysis, "
                "una instantánea por modelo, todas con la misma carga de entrada larga. El primer fragmento no "
                "incluye el razonamiento, así que refleja la cola y el prellenado y no el tiempo de pensar. El "
                "índice de precisión es relativo a un endpoint de referencia del mismo modelo. Los precios son "
                "tarifas públicas serverless por tokens de entrada y salida, sin descuentos de caché.</p>"
                "<p>Una mediana no es una promesa: los proveedores cambian entre instantáneas, y el enrutado, el "
                "procesamiento por lotes y la carga mueven las cifras. Los proveedores solo se comparan dentro de "
                "cada modelo; a igual velocidad se mantiene el orden del benchmark. "
                + st("El editor de esta página, Novita AI, está clasificado en todos los modelos de la página",
                     *novita_measured)
                + " y solo usa datos públicos.</p>",
            ),
            citations=AA_SOURCES,
        ),
        b.sources(("Sources", "Fuentes")),
        b.call_to_action(
            ("Try the models yourself", "Prueba los modelos tú mismo"),
            ("Get an API key and point your client at any of the models above.",
             "Consigue una clave de API y conecta tu cliente a cualquiera de estos modelos."),
            ("Get an API key", "Obtener una clave de API"),
            "https://novita.ai/",
        ),
    ]


def fastest_summary(data):
    """The article's summary: each ranking claim a checked statement, so a correction marks it (and
    the meta description, Open Graph, Twitter and JSON-LD, built from it, leave it out)."""
    st = DemoStatements(DemoBlocks("en", data))
    baseten = st.leads(FAST, CURRENT, q="exactly", n=2)
    coreweave = st.leads("coreweave", ["glm-5-3-flash"], source="aa-glm-5-3-flash")
    cerebras = st.leads("cerebras", ["gpt-oss-120b"], source="aa-gpt-oss-120b")
    # "Which host is quickest depends on the model": no host leads on every model of the article.
    depends = [st.leads(host, EVERY_MODEL, neg=True) for host in RANKED_HOSTS]
    return {
        "en": "<p>" + st("Which host is quickest depends on the model you call.", *depends) + " "
        + st("Baseten's premium tier leads two of the current models", baseten) + ", "
        + st("CoreWeave leads GLM-5.3-Flash", coreweave) + ", and "
        + st("Cerebras still leads the older GPT-OSS 120B baseline", cerebras) + ".</p>",
        "es": "<p>" + st("El proveedor más rápido depende del modelo que llames.", *depends) + " "
        + st("El nivel prémium de Baseten lidera dos de los modelos actuales", baseten) + ", "
        + st("CoreWeave lidera GLM-5.3-Flash", coreweave) + " y "
        + st("Cerebras sigue al frente en la referencia GPT-OSS 120B", cerebras) + ".</p>",
    }

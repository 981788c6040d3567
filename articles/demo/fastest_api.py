"""The demo article "Fastest LLM API": per-model speed tables and charts from Artificial Analysis
snapshots, picks, provider cards and prices from the providers' pages."""

from benchmarks.demo_data import ARTICLE_SOURCES

from .blocks import DemoBlocks

# Footnote order of the article: the four benchmark snapshots, then the providers' price pages.
ARTICLE_SOURCE_KEYS = [key for key, *_rest in ARTICLE_SOURCES]
AA_SOURCES = ["aa-glm-5-3", "aa-deepseek-v4-1-flash-1017", "aa-glm-5-3-flash", "aa-gpt-oss-120b"]
SPEED_TABLE_COLUMNS = ["output_speed_median", "ttfc_median", "accuracy_index", "price"]

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


def fastest_api_body(lang, data):
    b = DemoBlocks(lang, data)
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
            "model's table: Fireworks, for instance, is not measured on GLM-5.3.</p>",
            "<p>Todas las cifras de velocidad son medianas por proveedor publicadas por Artificial Analysis para un "
            "prompt largo de diez mil tokens de entrada. La velocidad de salida cuenta tokens generados por segundo; "
            "el primer fragmento es la espera hasta que empieza a llegar la respuesta, sin contar el razonamiento. "
            "El benchmark ejecuta cada modelo con su propio esfuerzo de referencia, así que los proveedores se "
            "comparan dentro de un mismo modelo y nunca entre modelos.</p><p>Si un proveedor vende un modelo pero "
            "el benchmark no lo mide, no aparece en la tabla de ese modelo: Fireworks, por ejemplo, no está medido "
            "en GLM-5.3.</p>",
        ),
        b.heading("GLM-5.3 output speed", "Velocidad de salida de GLM-5.3"),
        b.paragraph(
            f"<p>Of the {b.dataref('glm-5-3', 'aa-glm-5-3', compare='count')} hosts measured, one stands well "
            f"ahead: {b.dataref('glm-5-3', 'aa-glm-5-3', compare='leader')}, Baseten's premium tier, which is "
            "sold as a separate, more expensive product, so weigh it against the standard routes on price as well "
            "as on speed.</p>",
            f"<p>Se miden {b.dataref('glm-5-3', 'aa-glm-5-3', compare='count')} proveedores y uno va claramente por "
            f"delante: {b.dataref('glm-5-3', 'aa-glm-5-3', compare='leader')}, el nivel prémium de Baseten, "
            "que se vende como un producto aparte y más caro, así que conviene compararlo con las rutas estándar "
            "también por precio y no solo por velocidad.</p>",
        ),
        b.provider_table("glm-5-3", "aa-glm-5-3", SPEED_TABLE_COLUMNS, "output_speed_median"),
        b.bar_chart("glm-5-3", "aa-glm-5-3", "output_speed_median", NOTE_SCALED),
        b.note(NOTE_ACCURACY),
        b.heading("DeepSeek V4.1 Flash 1017 output speed", "Velocidad de salida de DeepSeek V4.1 Flash 1017"),
        b.paragraph(
            "<p>Seven hosts, and the widest gap between first and last of the current models: the fastest runs at "
            f"{b.dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='slowest')} the speed of "
            "the slowest, even though every row runs the same model under the same benchmark configuration.</p>",
            "<p>Siete proveedores y la mayor distancia entre el primero y el último de los modelos actuales: el más "
            f"rápido va a {b.dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='slowest')} "
            "la velocidad del más lento, aunque todas las filas ejecutan el mismo modelo con la misma "
            "configuración del benchmark.</p>",
        ),
        b.provider_table("deepseek-v4-1-flash-1017", "aa-deepseek-v4-1-flash-1017", SPEED_TABLE_COLUMNS, "output_speed_median"),
        b.bar_chart("deepseek-v4-1-flash-1017", "aa-deepseek-v4-1-flash-1017", "output_speed_median", NOTE_SCALED),
        b.note(NOTE_ACCURACY),
        b.heading("GLM-5.3-Flash output speed", "Velocidad de salida de GLM-5.3-Flash"),
        b.paragraph(
            f"<p>{b.dataref('glm-5-3-flash', 'aa-glm-5-3-flash', compare='count')} hosts again. This is the one "
            "current model on which the benchmark measures CoreWeave, and the table's leader is "
            f"{b.dataref('glm-5-3-flash', 'aa-glm-5-3-flash', compare='leader')}.</p>",
            f"<p>De nuevo {b.dataref('glm-5-3-flash', 'aa-glm-5-3-flash', compare='count')} proveedores. Es el "
            "único modelo actual en el que el benchmark mide a CoreWeave, y la tabla la encabeza "
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
            "<p>None of the three specialised-hardware hosts serves the newer models above. The older GPT-OSS 120B "
            "stays on the page as a baseline because it is the only model on which all three are measured side by "
            "side with the general-purpose hosts.</p>",
            "<p>Ninguno de los tres proveedores con hardware especializado sirve los modelos más nuevos de arriba. "
            "GPT-OSS 120B sigue en la página como referencia porque es el único modelo en el que los tres se miden "
            "junto a los proveedores generalistas.</p>",
        ),
        b.provider_table("gpt-oss-120b", "aa-gpt-oss-120b", SPEED_TABLE_COLUMNS, "output_speed_median"),
        b.bar_chart("gpt-oss-120b", "aa-gpt-oss-120b", "output_speed_median", NOTE_SCALED),
        b.heading("Provider by provider across the current models", "Proveedor a proveedor en los modelos actuales"),
        b.paragraph(
            "<p>The cards are sorted by each host's best output speed on any of the three current models, "
            "counting every tier it sells. The figures on a card are its standard tier; a dash means the "
            "benchmark has no row for that host on that model. The baseline-only hosts have no card.</p>",
            "<p>Las fichas se ordenan por la mejor velocidad de salida de cada proveedor en cualquiera de los tres "
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
                b.card("together-ai",
                     ("The steadiest host here: runner-up on output speed for every current model.",
                      "El proveedor más regular: segundo en velocidad de salida en todos los modelos actuales."),
                     ("<p>Fast on all three current models, with the shortest first chunk measured on GLM-5.3.</p>",
                      "<p>Rápido en los tres modelos actuales y con el primer fragmento más corto medido en "
                      "GLM-5.3.</p>"),
                     ("<p>On output speed it ranks "
                      f"{b.dataref('glm-5-3', 'aa-glm-5-3', compare='rank', endpoint=('together-ai', ''))} on "
                      "GLM-5.3, "
                      f"{b.dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='rank', endpoint=('together-ai', ''))} "
                      "on DeepSeek V4.1 Flash 1017 and "
                      f"{b.dataref('glm-5-3-flash', 'aa-glm-5-3-flash', compare='rank', endpoint=('together-ai', ''))} "
                      "on GLM-5.3-Flash, and on GLM-5.3 two other hosts score higher on the accuracy index.</p>",
                      "<p>En velocidad de salida queda "
                      f"{b.dataref('glm-5-3', 'aa-glm-5-3', compare='rank', endpoint=('together-ai', ''))} en "
                      "GLM-5.3, "
                      f"{b.dataref('deepseek-v4-1-flash-1017', 'aa-deepseek-v4-1-flash-1017', compare='rank', endpoint=('together-ai', ''))} "
                      "en DeepSeek V4.1 Flash 1017 y "
                      f"{b.dataref('glm-5-3-flash', 'aa-glm-5-3-flash', compare='rank', endpoint=('together-ai', ''))} "
                      "en GLM-5.3-Flash y, en GLM-5.3, otros dos proveedores puntúan más alto en el índice de "
                      "precisión.</p>")),
                b.card("coreweave",
                     ("Fastest GLM-5.3-Flash host, and measured on no other current model.",
                      "El proveedor más rápido de GLM-5.3-Flash, y no se mide en ningún otro modelo actual."),
                     ("<p>A clear lead in output speed on GLM-5.3-Flash over every other measured host.</p>",
                      "<p>Una ventaja clara en velocidad de salida en GLM-5.3-Flash frente al resto de proveedores "
                      "medidos.</p>"),
                     ("<p>No benchmark rows for the other two current models, and its first chunk on GLM-5.3-Flash "
                      "is several times longer than the quickest host's.</p>",
                      "<p>No hay datos del benchmark para los otros dos modelos actuales, y su primer fragmento en "
                      "GLM-5.3-Flash es varias veces más largo que el del proveedor más rápido.</p>")),
                b.card("fireworks",
                     ("Middle of the field on the two current models where it is measured.",
                      "En mitad de la tabla en los dos modelos actuales en los que se mide."),
                     ("<p>On DeepSeek V4.1 Flash 1017 it outpaces DeepSeek's own API.</p>",
                      "<p>En DeepSeek V4.1 Flash 1017 supera a la propia API de DeepSeek.</p>"),
                     ("<p>A slow first chunk on GLM-5.3-Flash and no benchmark row on GLM-5.3.</p>",
                      "<p>Un primer fragmento lento en GLM-5.3-Flash y ningún dato del benchmark en GLM-5.3.</p>")),
                b.card("novita-ai",
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
                b.card("z-ai",
                     ("Slow on GLM-5.3 but the most accurate endpoint for it.",
                      "Lento en GLM-5.3 pero el endpoint más preciso para ese modelo."),
                     ("<p>The top accuracy index score among the GLM-5.3 hosts.</p>",
                      "<p>La mejor puntuación del índice de precisión entre los proveedores de GLM-5.3.</p>"),
                     ("<p>Near the bottom of the GLM-5.3 speed ranking, with a long wait for the first chunk.</p>",
                      "<p>Cerca del final en velocidad de GLM-5.3, con una espera larga hasta el primer "
                      "fragmento.</p>")),
                b.card("deepinfra",
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

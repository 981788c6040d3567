"""An article's data page and downloads rendered ahead, with the article (articles/prerender.py).

The prerender task stores, per page and language, what these routes compute from data: the data
page's figures table and attributions, the CSV and JSON of every figure, and the CSV of each table,
chart and leaderboard, and the Open Graph PNG of the lead chart (articles/og_image.py). The routes (articles/data_routes.py) serve them from the article's row under
the same exactness rules (same live revision, same content version, not expired), so a page-cache
miss of a data page or a file (after a purge, a new data generation, in another worker) costs one
query, not reading and formatting every figure again.
"""

from django.template.loader import render_to_string

from . import downloads, og_image
from .figures import page_figures

DATA_PAGE_TEMPLATE = "articles/includes/data_trail_main.html"


def render_data_routes(page, request):
    """The stored fields of PrerenderedArticle for the data routes, in the active language."""
    body = list(page.body)
    rows = downloads.body_rows(body, page.page_data)
    blocks = {}
    for child in body:
        if child.id and downloads.offers_download(child.block) and child.id not in blocks:  # the first, as find_block
            name = downloads.file_name(page, downloads.block_file_suffix(child), "csv")
            blocks[child.id] = [name, downloads.block_csv(body, page.page_data, child)]
    return {
        "data_html": render_to_string(
            DATA_PAGE_TEMPLATE, {"page": page, "figures": page_figures(body, page.page_data)}, request
        ),
        "figures_csv": downloads.as_csv(rows),
        # The JSON names the article by the address it is requested at, which the task cannot know.
        "figures_json": downloads.as_json(rows, page, downloads.URL_SLOT),
        "block_csvs": blocks,
        # Drawn from the same PageData as the stored article, so the image and the page agree.
        "og_image": og_image.png(page) or b"",
    }

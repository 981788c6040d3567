"""Article listings (the home page, an index): each article's summary as the pre-render task checked it.

A summary's statements are judged on the article's data; a listing of many articles judging them
while it renders would load every listed article's figures (queries growing with the articles).
The task that stores an article's rendering stores that checked summary with it (articles/prerender.py),
and a listing reads all of them in one query. A summary without statements needs no data at all;
one whose stored copy is missing or no longer exact is checked live, as its article would be.
"""

from django.utils import timezone, translation

from articles.statements.markup import has_statements

from .prerender import PrerenderedArticle, enabled


def with_checked_summaries(articles):
    """`articles` (a list), each holding its stored checked summary where one is exact."""
    language = (translation.get_language() or "en")[:2]
    checked = [article for article in articles if has_statements(article.summary)]
    if not checked or not enabled():
        return articles
    stored = {
        page_id: (revision_id, text)
        for page_id, revision_id, text in PrerenderedArticle.objects.exact(timezone.now())
        .filter(page_id__in=[article.pk for article in checked], language=language)
        .values_list("page_id", "revision_id", "summary_text")
    }
    for article in checked:
        revision_id, text = stored.get(article.pk, (None, ""))
        if revision_id is not None and revision_id == article.live_revision_id:
            article.__dict__["stored_summary_text"] = text
    return articles

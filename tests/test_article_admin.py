"""Editors create, preview and publish articles with every block through the Wagtail admin."""

from django.contrib.auth import get_user_model
from wagtail.test.utils import WagtailPageTestCase
from wagtail.test.utils.form_data import inline_formset, nested_form_data, rich_text, streamfield

from articles.demo import load_demo_site
from articles.models import ArticlePage, HomePage
from benchmarks.models import Endpoint, LanguageModel, Source


def every_block(model, source, endpoint, provider, extra_source):
    def listblock(items):
        return {"count": len(items), **{f"{i}-value": v for i, v in enumerate(items)},
                **{f"{i}-deleted": "" for i in range(len(items))}, **{f"{i}-order": i for i in range(len(items))}}

    return streamfield([
        ("heading", {"text": "Intro", "level": "h2", "anchor": ""}),
        ("paragraph", rich_text("<p>Plain words.</p>")),
        ("note", {"style": "note", "text": rich_text("<p>A note.</p>"), "citations": listblock([source.pk])}),
        ("picks_table", {"caption": rich_text(""), "rows": listblock([
            {"need": "fastest", "model": model.pk, "source": source.pk, "compare_with": endpoint.pk,
             "extra_citations": listblock([])},
        ])}),
        ("provider_table", {
            "model": model.pk, "source": source.pk,
            "columns": listblock([{"field": "output_speed_median", "difference_to_leader": "on"},
                                  {"field": "price", "difference_to_leader": ""}]),
            "sort_metric": "output_speed_median", "name_style": "short", "show_api_model": "",
            "cite_sources": "on", "caption": rich_text(""),
        }),
        ("bar_chart", {"model": model.pk, "source": source.pk, "metric": "output_speed_median",
                       "name_style": "short", "note": rich_text("")}),
        ("provider_cards", {"metric": "output_speed_median",
                            "models": listblock([{"model": model.pk, "source": source.pk}]),
                            "cards": listblock([{"provider": provider.pk, "summary": rich_text(""),
                                                 "strengths": rich_text("<p>Quick.</p>"),
                                                 "limitations": rich_text("<p>Pricey.</p>")}])}),
        ("provider_list", {"model": model.pk, "source": source.pk, "pattern": "speed_summary",
                           "parts": listblock([]), "order": "best",
                           "order_by": "output_speed_median", "name_style": "full"}),
        ("endpoint_list", {"model": model.pk, "source": source.pk, "order_by": "", "name_style": "full"}),
        ("leaderboard", {"metric": "output_speed_median", "models": listblock([{"model": model.pk, "source": ""}]),
                         "window_hours": "", "limit": "3", "name_style": "short"}),
        ("faq", {"heading": "FAQ", "items": listblock([{"question": "Why?", "answer": rich_text("<p>Because.</p>")}])}),
        ("related_links", {"heading": "More", "links": listblock([{"page": "", "url": "https://example.com/", "text": "Example"}])}),
        ("methodology", {"heading": "Methodology", "text": rich_text("<p>How.</p>"), "citations": listblock([extra_source.pk])}),
        ("call_to_action", {"heading": "Try it", "text": "", "button_text": "Go", "url": "https://example.com/"}),
        ("sources", {"heading": ""}),
    ])


class ArticleAdminTests(WagtailPageTestCase):
    @classmethod
    def setUpTestData(cls):
        load_demo_site()
        cls.home = HomePage.objects.get()
        cls.model = LanguageModel.objects.get(slug="glm-5-3")
        cls.source = Source.objects.get(title_en="GLM-5.3 providers")
        cls.pricing = Source.objects.get(title_en="pricing", publisher="Baseten")
        cls.extra = Source.objects.get(title_en="GPT-OSS 120B providers")
        cls.endpoint = Endpoint.objects.get(model=cls.model, provider__slug="novita-ai")
        cls.provider = cls.endpoint.provider
        cls.user = get_user_model().objects.create_superuser("ed", "ed@example.com", "pw-ed-123456")

    def setUp(self):
        self.client.force_login(self.user)

    def form_data(self, sources, body=None, slug="every-block"):
        body = body or every_block(self.model, self.source, self.endpoint, self.provider, self.extra)
        return nested_form_data({
            # English only: the form has no Spanish fields (Spanish is written in the translation workspace).
            "title_en": "Every block", "slug_en": slug, "summary_en": rich_text("<p>All blocks.</p>"), "body_en": body,
            "publisher_disclosure_en": rich_text(""),
            "show_meta_line": "on", "statement_policy": "mark",
            "page_sources": inline_formset([{"source": s.pk} for s in sources]),
        })

    def test_editor_can_create_and_publish_an_article_with_every_block(self):
        sources = [self.source, self.pricing, self.extra, *Source.objects.filter(prices__endpoint__model=self.model)]
        unique = list(dict.fromkeys(sources))
        self.assertCanCreate(self.home, ArticlePage, self.form_data(unique))
        page = ArticlePage.objects.get(slug_en="every-block")
        self.assertTrue(page.live)
        self.assertEqual([child.block_type for child in page.body][:3], ["heading", "paragraph", "note"])
        response = self.client.get("/en/every-block/")
        self.assertEqual(response.status_code, 200)
        for text in ("Fastest · GLM-5.3", "Output speed by provider · GLM-5.3 (tokens/s)", "Quick.", "Because.",
                     "Baseten (Fast)", "FAQPage"):
            self.assertIn(text, response.text)

    def test_preview_in_english_and_spanish(self):
        """Each preview mode speaks its language: Spanish shows the approved translation of the blocks the
        editor kept (matched by block id) around the English being edited, never a Spanish body of its own."""
        page = ArticlePage.objects.get(slug_en="fastest-llm-api")
        preview_url = f"/admin/pages/{page.pk}/edit/preview/"
        kept = next(child for child in page.body_en if child.block_type == "heading")
        self.assertEqual(kept.value["text"], "How to read these rankings")
        body = streamfield([
            ("heading", {"text": kept.value["text"], "level": "h2", "anchor": ""}),
            ("heading", {"text": "Hello", "level": "h2", "anchor": ""}),
        ])
        body["0"]["id"] = kept.id
        data = self.form_data([self.source], body=body)
        response = self.client.post(preview_url, data)
        self.assertEqual(response.json().get("is_valid"), True, response.content)
        english = self.client.get(preview_url, {"mode": "en"})
        spanish = self.client.get(preview_url, {"mode": "es"})
        self.assertIn('<html lang="en">', english.text)
        self.assertIn("How to read these rankings", english.text)
        self.assertIn("Hello", english.text)
        self.assertIn('<html lang="es">', spanish.text)
        self.assertIn("Cómo leer estas clasificaciones", spanish.text)
        self.assertNotIn("How to read these rankings", spanish.text)
        # The heading the editor added has no Spanish yet: the derived body shows its English.
        self.assertIn("Hello", spanish.text)
        # The Spanish title is the approved one, not the title being typed in English.
        self.assertIn("La API de LLM más rápida", spanish.text)
        self.assertNotIn("Every block", spanish.text)

    def test_citing_a_source_missing_from_the_list_fails_validation(self):
        # the methodology block cites GPT-OSS providers, which this list leaves out
        data = self.form_data([self.source, self.pricing], slug="missing-source")
        add_url = f"/admin/pages/add/articles/articlepage/{self.home.pk}/"
        response = self.client.post(add_url, {**data, "action-publish": "action-publish"})
        self.assertEqual(response.status_code, 200)
        self.assertFalse(ArticlePage.objects.filter(slug_en="missing-source").exists())
        errors = response.context["form"].errors
        self.assertIn("body_en", errors)
        self.assertIn("Artificial Analysis · GPT-OSS 120B providers", str(errors["body_en"]))
        self.assertIn("not in this page", str(errors["body_en"]))
        # a draft always saves; publishing is what checks the citations
        self.assertEqual(self.client.post(add_url, data).status_code, 302)
        self.assertFalse(ArticlePage.objects.get(slug_en="missing-source").live)

    def test_a_note_citing_a_source_missing_from_the_list_fails_validation(self):
        """Each block declares the sources its editor chose (articles/forms.py reads them from the
        values, without rendering the body): a note's citations count like the methodology's."""
        body = streamfield([
            ("note", {"style": "note", "text": rich_text("<p>A note.</p>"),
                      "citations": {"count": 1, "0-value": self.extra.pk, "0-deleted": "", "0-order": 0}}),
        ])
        add_url = f"/admin/pages/add/articles/articlepage/{self.home.pk}/"
        data = self.form_data([self.source], body=body, slug="note-cites")
        response = self.client.post(add_url, {**data, "action-publish": "action-publish"})
        self.assertEqual(response.status_code, 200)
        self.assertIn("Artificial Analysis · GPT-OSS 120B providers", str(response.context["form"].errors["body_en"]))
        listed = self.form_data([self.source, self.extra], body=body, slug="note-cites")
        self.assertEqual(self.client.post(add_url, {**listed, "action-publish": "action-publish"}).status_code, 302)
        self.assertTrue(ArticlePage.objects.get(slug_en="note-cites").live)

    def test_removing_a_cited_source_from_a_published_page_is_refused(self):
        page = ArticlePage.objects.get(slug_en="fastest-llm-api")
        zai_pricing = Source.objects.get(publisher="Z.ai")
        remaining = [item.source for item in page.page_sources.all() if item.source != zai_pricing]
        body = streamfield([
            ("picks_table", {"caption": rich_text(""), "rows": {"count": 1, "0-deleted": "", "0-order": 0, "0-value": {
                "need": "highest_accuracy", "model": self.model.pk, "source": self.source.pk,
                "compare_with": self.endpoint.pk,
                "extra_citations": {"count": 1, "0-value": zai_pricing.pk, "0-deleted": "", "0-order": 0},
            }}}),
        ])
        response = self.client.post(
            f"/admin/pages/{page.pk}/edit/",
            {**self.form_data(remaining, body=body, slug="fastest-llm-api"), "action-publish": "action-publish"},
        )
        self.assertEqual(response.status_code, 200)
        self.assertIn("Z.ai · pricing", str(response.context["form"].errors.get("body_en")))
        self.assertEqual(page.page_sources.count(), 18)

"""Snippet viewsets, choosers, import views for benchmark data (registered via wagtail_hooks)."""

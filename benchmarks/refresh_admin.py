"""Refresh runs, upstream mapping and "Refresh now" admin views (registered via wagtail_hooks)."""

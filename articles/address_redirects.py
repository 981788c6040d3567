"""Old addresses keep working: when a live page's address changes in either language (its English or
Spanish slug, through the editor or a translation's approval, or a move), every old address of it
in that language — the page, its sub-routes (an article's /data/ or /datos/ page and files) and its
live descendants' — answers with a permanent redirect to the new one.

Wagtail's own automatic redirects know only the default language's url_path and the page itself,
so they are switched off (WAGTAILREDIRECTS_AUTO_CREATE) and this replaces them for both languages.
The old addresses are read from the stored row just before the page is saved and compared with the
saved row's; the redirects are rows of wagtail.contrib.redirects, so editors see and can remove them
under Settings → Redirects, and its middleware answers them (only where nothing else answers).
"""

from django.conf import settings
from django.db.models.signals import post_save, pre_save
from django.utils import translation
from wagtail.contrib.redirects.models import Redirect
from wagtail.models import Page

# A save that writes none of these cannot change an address (Wagtail's revision bookkeeping).
ADDRESS_FIELDS = {"slug", "url_path"} | {
    f"{name}_{code}" for name in ("slug", "url_path") for code, _name in settings.LANGUAGES
}
BEFORE = "_addresses_before"


def _languages():
    return [code for code, _name in settings.LANGUAGES]


def page_address(page, language):
    """(site id, path) of the page in `language` ("/es/guia/"), or None where it has no address."""
    with translation.override(language):
        parts = page.get_url_parts()
    if parts is None or not parts[2]:
        return None
    return parts[0], parts[2]


def route_paths(page, language):
    """The page's own sub-paths in `language`, "/" first (an article adds its data page and files)."""
    with translation.override(language):
        return page.specific_deferred.get_cached_paths()


def remember_addresses(sender, instance, raw=False, update_fields=None, **kwargs):
    if raw or not isinstance(instance, Page) or instance.pk is None:
        return
    if update_fields is not None and not ADDRESS_FIELDS & set(update_fields):
        return
    stored = Page.objects.filter(pk=instance.pk).first()
    if stored is None or not stored.live:
        return
    setattr(instance, BEFORE, (stored, {code: page_address(stored, code) for code in _languages()}))


def _old_tree(stored, language, old_path, url_path_field):
    """[old address] of the page's sub-routes and its live descendants' (and theirs), under `old_path`."""
    addresses = [old_path.rstrip("/") + path for path in route_paths(stored, language)]
    base = getattr(stored, url_path_field) or ""
    for descendant in stored.get_descendants().live().specific().iterator():
        # Its url_path may already be the new one (modeltranslation updates them in the same save):
        # its place under the page is what matters.
        relative = getattr(descendant, url_path_field) or ""
        relative = relative[len(base):] if base and relative.startswith(base) else None
        if relative is None:
            continue
        for path in route_paths(descendant, language):
            addresses.append(old_path + relative.rstrip("/") + path)
    return addresses


def redirect_old_addresses(sender, instance, raw=False, **kwargs):
    remembered = instance.__dict__.pop(BEFORE, None)
    if raw or remembered is None or not instance.live:
        return
    stored, before = remembered
    # Most saves (a publish, a revision) keep every address: the saved values tell, without a query.
    # A field the instance never loaded was not written by this save.
    if all(instance.__dict__.get(name, getattr(stored, name)) == getattr(stored, name) for name in ADDRESS_FIELDS):
        return
    saved = Page.objects.get(pk=instance.pk)
    for language, old in before.items():
        new = page_address(saved, language)
        if old is None or new is None or old[1] == new[1]:
            continue
        site_id, old_path = old
        new_path = new[1]
        for address in _old_tree(stored, language, old_path, f"url_path_{language}"):
            target = new_path + address[len(old_path):]
            Redirect.objects.update_or_create(
                old_path=Redirect.normalise_path(address),
                site_id=site_id,
                defaults={"redirect_link": target, "redirect_page": None, "is_permanent": True,
                          "automatically_created": True},
            )
        # Earlier redirects lead straight to the new address (no chains); one from an address the
        # page answers at again (a slug changed back) would never be used and is removed.
        for redirect in Redirect.objects.filter(redirect_link__startswith=old_path):
            redirect.redirect_link = new_path + redirect.redirect_link[len(old_path):]
            redirect.save(update_fields=["redirect_link"])
        Redirect.objects.filter(old_path=Redirect.normalise_path(new_path)).delete()


def connect():
    pre_save.connect(remember_addresses, dispatch_uid="address-redirects-before")
    post_save.connect(redirect_old_addresses, dispatch_uid="address-redirects-after")

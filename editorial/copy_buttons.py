"""wagtail-modeltranslation's "Copy content from: <language>" buttons, taken out of every form.

Next to each translated StreamField the package adds a button per other language that posts the
form to `pages/<id>/edit/copy_translation_content/` and swaps that language's body into this one.
Here the Spanish body is derived from the English one (editorial/spanish.py): copying Spanish over
the English body could only destroy the English, and the endpoint answers a 500 to any post the
package's own script does not make. So both the script and the address are unregistered; without
the address, a post to it is a 404 and changes nothing.
"""

from wagtail import hooks

# Hook name → the wagtail_modeltranslation function that registered the feature on it.
COPY_HOOKS = {
    "insert_editor_js": "streamfields_translation_copy",
    "register_admin_urls": "copy_streamfields_content",
}
PACKAGE = "wagtail_modeltranslation.wagtail_hooks"


def remove():
    """Unregister the copy buttons. Runs from editorial/wagtail_hooks.py, which Wagtail imports after
    the package's (INSTALLED_APPS order); raises if an upgrade renamed them, so it is noticed."""
    for hook_name, function_name in COPY_HOOKS.items():
        registered = hooks._hooks.get(hook_name, [])
        found = [entry for entry in registered if entry[0].__module__ == PACKAGE and entry[0].__name__ == function_name]
        if not found and not getattr(remove, "done", False):
            raise LookupError(f"{PACKAGE}.{function_name} is no longer registered on {hook_name}")
        for entry in found:
            registered.remove(entry)
    remove.done = True

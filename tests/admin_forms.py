"""Read an admin edit form the way a browser would submit it (inputs, textareas, selects)."""

from bs4 import BeautifulSoup


def form_data(html, form_id):
    """The name → value pairs `form_id` would post untouched (checked boxes only, no buttons)."""
    form = BeautifulSoup(html, "html.parser").find("form", id=form_id)
    assert form is not None, f"no <form id={form_id!r}> on the page"
    data = {}
    for element in form.find_all(["input", "textarea", "select"]):
        name = element.get("name")
        if not name or element.has_attr("disabled"):
            continue
        if element.name == "textarea":
            data[name] = element.text.removeprefix("\n")
        elif element.name == "select":
            selected = element.find("option", selected=True) or element.find("option")
            data[name] = selected.get("value", "") if selected else ""
        elif element.get("type") in {"checkbox", "radio"}:
            if element.has_attr("checked"):
                data[name] = element.get("value", "on")
        elif element.get("type") not in {"submit", "button", "file"}:
            data[name] = element.get("value", "")
    return data

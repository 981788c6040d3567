"""Every figure, pick and ranking one page shows in one language, read from what its blocks compute.

The data blocks' `data_context` (the same values their templates print) is walked for the shapes
they share: a dict with a "measurement" and its "text" is a figure, a "price" with its "text" a
price, a picks row ("need", "pick") a pick, and a list of distinct endpoints or providers a
ranking. Prose references are resolved like the page resolves them.
"""

from django.utils import translation
from django.utils.translation import gettext as _

from articles.datarefs.refs import refs_in_blocks
from articles.datarefs.resolve import describe_resolved, format_resolved, resolve_all
from articles.formatting import DASH
from benchmarks.metrics import METRICS

VALUE, PICK, RANKING = "value", "pick", "ranking"
RANKING_SHOWN = 5  # positions quoted in a ranking item
# Lists whose order is a ranking: table rows, chart bars, cards, leaderboard and list items.
RANKED_LISTS = {"rows", "bars", "cards", "items"}


def place_label(child, index):
    label = str(child.block.label or child.block_type)
    model = child.value.get("model") if hasattr(child.value, "get") else None
    name = getattr(model, "name", None)
    text = f"{label} · {name}" if name else label
    return _("%(place)s (block %(n)s)") % {"place": text, "n": index + 1}


def _identity(item):
    """(key, label) of the endpoint or provider a ranked item stands for, or None."""
    if not isinstance(item, dict) or "need" in item:
        return None
    endpoint = item.get("endpoint")
    if endpoint is not None and hasattr(endpoint, "label"):
        return ("endpoint", endpoint.pk), endpoint.label
    provider = item.get("provider")
    if provider is not None and hasattr(provider, "name"):
        return ("provider", provider.pk), provider.name
    measurement = item.get("measurement")
    if measurement is not None:
        return ("endpoint", measurement.endpoint_id), measurement.endpoint.label
    if item.get("name"):
        model = item.get("model")
        return ("name", getattr(model, "pk", None), str(item["name"])), str(item["name"])
    return None


def _ranking_text(labels):
    shown = labels[:RANKING_SHOWN]
    text = ", ".join(f"{n}. {label}" for n, label in enumerate(shown, start=1))
    return text + (" …" if len(labels) > RANKING_SHOWN else "")


def _walk(obj, path, found):
    if isinstance(obj, dict):
        if "need" in obj and "pick" in obj:
            pick = obj["pick"]
            found[("pick", obj["need"])] = (PICK, obj["need"], pick.label if pick is not None else DASH)
            found[("reason", obj["need"])] = (
                VALUE,
                f"{obj['need']} · {_('reason')}",
                str(obj.get("reason") or DASH),
            )
        elif "text" in obj and "measurement" in obj:
            row = obj["measurement"]
            if row is not None:
                metric = METRICS.get(row.metric)
                figure = f"{row.endpoint.label} · {metric.label if metric else row.metric}"
                found.setdefault(
                    ("measurement", row.endpoint_id, row.metric), (VALUE, figure, str(obj["text"]))
                )
            else:
                identity = _identity(obj)
                if identity is not None and obj.get("text") not in (None, DASH):
                    found.setdefault(("named",) + identity[0], (VALUE, identity[1], str(obj["text"])))
        if obj.get("price") is not None and "text" in obj:
            price = obj["price"]
            figure = f"{price.endpoint.label} · {_('price in / out per 1M')}"
            found.setdefault(("price", price.endpoint_id), (VALUE, figure, str(obj["text"])))
        if "sentence" in obj and obj.get("name"):
            found.setdefault(("sentence", str(obj["name"])), (VALUE, str(obj["name"]), str(obj["sentence"])))
        for name, value in obj.items():
            _walk(value, path + (name,), found)
    elif isinstance(obj, list | tuple):
        identities = [_identity(item) for item in obj]
        ranked = bool(path) and path[-1] in RANKED_LISTS
        if ranked and len(obj) > 1 and all(identities) and len({i[0] for i in identities}) == len(identities):
            found[("ranking",) + path] = (RANKING, [i[0] for i in identities], [i[1] for i in identities])
        for n, item in enumerate(obj):
            _walk(item, path + (n,), found)


def _block_figures(child, data):
    found = {}
    if hasattr(child.block, "data_requirements") and hasattr(child.block, "data_context"):
        _walk(child.block.data_context(child.value, data), (), found)
    refs = refs_in_blocks([child])
    for ref_key, resolved in resolve_all(refs, data).items():
        found[("ref", ref_key)] = (VALUE, describe_resolved(resolved), format_resolved(resolved))
    return found


def page_figures(blocks, data, lang):
    """{(block index, key): (kind, figure, text or ranking)} for a page body in one language."""
    shown = {}
    with translation.override(lang):
        for index, child in enumerate(blocks):
            for key, value in _block_figures(child, data).items():
                shown[(index, key)] = value
    return shown


def differences(blocks, before, after, lang):
    """What reads differently between two states of the data:
    [(block index, place, key, kind, figure, old text, new text)]."""
    old, new = page_figures(blocks, before, lang), page_figures(blocks, after, lang)
    changes = []
    with translation.override(lang):
        places = {index: place_label(child, index) for index, child in enumerate(blocks)}
        for full_key in list(old) + [k for k in new if k not in old]:
            index, key = full_key
            was, now = old.get(full_key), new.get(full_key)
            if key[0] == "ranking":
                changes.extend(_ranking_change(index, places[index], key, was, now))
                continue
            kind, figure, _text = now or was
            was_text = was[2] if was else DASH
            now_text = now[2] if now else DASH
            if was_text != now_text:
                changes.append((index, places[index], key, kind, figure, was_text, now_text))
    return changes


def _ranking_change(index, place, key, was, now):
    if was is None or now is None:
        return []
    _kind, old_ids, old_labels = was
    _kind, new_ids, new_labels = now
    if old_ids == new_ids:
        return []
    if old_ids[0] != new_ids[0]:
        # A new first place: the "fastest" (or cheapest, most accurate) the prose may name.
        return [(index, place, key, PICK, _("leader"), old_labels[0], new_labels[0])]
    return [(index, place, key, RANKING, _("order"), _ranking_text(old_labels), _ranking_text(new_labels))]

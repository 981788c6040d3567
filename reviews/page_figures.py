"""What reads differently on a page between two states of the data, from the figures its blocks
declare (`articles.figures`): values, picks, and the order of every ranked list."""

import re

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from articles.figure_check import body_texts
from articles.figures import PICK, RANKING, VALUE, page_figures
from articles.prose_fields import page_field_prose
from benchmarks.formatting import DASH

__all__ = ["PICK", "RANKING", "VALUE", "differences", "page_figure_map"]


def page_figure_map(blocks, data, lang):
    """{(block index, figure key): PageFigure} for a page body in one language."""
    with translation.override(lang):
        return {(pf.block_index, pf.figure.key): pf for pf in page_figures(blocks, data)}


def rankings(figure_map):
    """{(block index, ranking name): [(identity, label)] in page order}."""
    found = {}
    for (index, _key), pf in figure_map.items():
        figure = pf.figure
        if figure.ranking and figure.position is not None:
            provider = figure.endpoint.provider.name if figure.endpoint is not None else figure.row
            found.setdefault((index, figure.ranking), {}).setdefault(figure.position, (figure.row, provider))
    return {key: [by_position[p] for p in sorted(by_position)] for key, by_position in found.items()}


def moved_rows(was, now):
    """The rows whose place differs between two orders (identities), however far apart: those that
    moved, entered or left the list, in no particular order."""
    old_position = {identity: n for n, identity in enumerate(was)}
    new_position = {identity: n for n, identity in enumerate(now)}
    return {identity for identity in old_position.keys() | new_position.keys()
            if old_position.get(identity) != new_position.get(identity)}


def _rows_text(labels, shown):
    """The rows of `labels` in `shown`, each with its place ("6. Host 6, 7. Host 7 … 10. Host 10"): "…"
    stands for the rows between, above and below that did not move; a dash when none of them is in it."""
    parts, last = [], 0
    for n, label in enumerate(labels, start=1):
        if label not in shown:
            continue
        gap = n > last + 1
        parts.append(("… " if gap and not parts else " … " if gap else ", ") + f"{n}. {label}")
        last = n
    if not parts:
        return DASH
    return "".join(parts).removeprefix(", ") + (" …" if last < len(labels) else "")


def mentions(blocks, names, page=None, lang=None):
    """Places in the page's prose (its summary and other own fields, paragraphs, cards, notes, FAQ
    answers…) that name one of these providers: what an editor re-reads when a ranking changes, since
    prose may claim a position. The summary comes first: it is also the meta description and the
    listing's text, read by more people than any paragraph."""
    patterns = [re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE) for name in sorted(set(names)) if name]
    texts = [(text.place, text.text) for text in page_field_prose(page, lang)] if page is not None and lang else []
    texts += list(body_texts(blocks))
    found = [place for place, text in texts if any(p.search(text) for p in patterns)]
    for n, child in enumerate(blocks, start=1):
        about = getattr(child.block, "prose_about_providers", None)
        for provider, label in about(child.value) if about else ():
            if provider in names:
                found.append(_("%(place)s (block %(n)s) › %(card)s") % {"place": child.block.label, "n": n, "card": label})
    return found


def differences(blocks, before, after, lang, page=None):
    """[(block index, place, key, kind, figure, old text, new text, [places naming a provider whose
    rank changed])] for what reads differently."""
    old, new = page_figure_map(blocks, before, lang), page_figure_map(blocks, after, lang)
    changes = []
    with translation.override(lang):
        for full_key in list(old) + [k for k in new if k not in old]:
            was, now = old.get(full_key), new.get(full_key)
            shown = now or was
            was_text = was.figure.text if was else DASH
            now_text = now.figure.text if now else DASH
            if was_text != now_text:
                changes.append(
                    (shown.block_index, shown.place, full_key[1], shown.figure.kind, shown.figure.label,
                     was_text, now_text, [])
                )
        old_rankings, new_rankings = rankings(old), rankings(new)
        places = {pf.block_index: pf.place for pf in list(old.values()) + list(new.values())}
        for key in old_rankings.keys() & new_rankings.keys():
            found = _ranking_change(key, places[key[0]], old_rankings[key], new_rankings[key])
            if found:
                named = mentions(blocks, _moved_providers(old_rankings[key], new_rankings[key]), page, lang)
                # The places in prose go with the first item (the new leader, else the new order).
                changes += [(*change, named if n == 0 else []) for n, change in enumerate(found)]
    return changes


def _moved_providers(was, now):
    old_position = {identity: n for n, (identity, _p) in enumerate(was)}
    return {
        provider for n, (identity, provider) in enumerate(now) if old_position.get(identity) != n
    } | {provider for identity, provider in was if identity not in {i for i, _p in now}}


def _ranking_change(key, place, was, now):
    """[(index, place, key, kind, figure, old text, new text)]: a new first place as a pick (the
    "fastest" the prose may name), and every row that moved with its old place ("Was") and its new
    one ("Now"), however far down the list and however far apart."""
    index, name = key
    old_ids = [identity for identity, _provider in was]
    new_ids = [identity for identity, _provider in now]
    if old_ids == new_ids or not old_ids or not new_ids:
        return []
    found = []
    if old_ids[0] != new_ids[0]:
        found.append((index, place, (PICK, name), PICK, _("leader"), old_ids[0], new_ids[0]))
    moved = moved_rows(old_ids, new_ids)
    figure = ngettext("order (%(n)s row moved)", "order (%(n)s rows moved)", len(moved)) % {"n": len(moved)}
    found.append((index, place, (RANKING, name), RANKING, figure, _rows_text(old_ids, moved), _rows_text(new_ids, moved)))
    return found

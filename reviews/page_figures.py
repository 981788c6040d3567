"""What reads differently on a page between two states of the data, from the figures its blocks
declare (`articles.figures`): values, picks, and the order of every ranked list."""

import re

from django.utils import translation
from django.utils.translation import gettext as _

from articles.figure_check import body_texts
from articles.figures import PICK, RANKING, VALUE, page_figures
from benchmarks.formatting import DASH

__all__ = ["PICK", "RANKING", "VALUE", "differences", "page_figure_map"]

RANKING_SHOWN = 5  # positions quoted in a ranking item


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


def _ranking_text(labels, start=0):
    """Positions start+1 … start+RANKING_SHOWN, with "…" where the list goes on."""
    shown = labels[start:start + RANKING_SHOWN]
    text = ", ".join(f"{n}. {label}" for n, label in enumerate(shown, start=start + 1))
    return ("… " if start else "") + text + (" …" if len(labels) > start + RANKING_SHOWN else "")


def _first_quoted(old_ids, new_ids):
    """Where the quoted positions begin: at 1 when the order changes among the first RANKING_SHOWN,
    else one place above the first that changed, so "Was" and "Now" show the rows that moved."""
    first = next(n for n in range(max(len(old_ids), len(new_ids))) if old_ids[n:n + 1] != new_ids[n:n + 1])
    return 0 if first < RANKING_SHOWN else first - 1


def mentions(blocks, names):
    """Places in the page's prose (paragraphs, cards, notes, FAQ answers…) that name one of these
    providers: what an editor re-reads when a ranking changes, since prose may claim a position."""
    patterns = [re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE) for name in sorted(set(names)) if name]
    found = [place for place, text in body_texts(blocks) if any(p.search(text) for p in patterns)]
    for n, child in enumerate(blocks, start=1):
        about = getattr(child.block, "prose_about_providers", None)
        for provider, label in about(child.value) if about else ():
            if provider in names:
                found.append(_("%(place)s (block %(n)s) › %(card)s") % {"place": child.block.label, "n": n, "card": label})
    return found


def differences(blocks, before, after, lang):
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
            change = _ranking_change(key, places[key[0]], old_rankings[key], new_rankings[key])
            if change:
                moved = _moved_providers(old_rankings[key], new_rankings[key])
                changes.append((*change, mentions(blocks, moved)))
    return changes


def _moved_providers(was, now):
    old_position = {identity: n for n, (identity, _p) in enumerate(was)}
    return {
        provider for n, (identity, provider) in enumerate(now) if old_position.get(identity) != n
    } | {provider for identity, provider in was if identity not in {i for i, _p in now}}


def _ranking_change(key, place, was, now):
    index, name = key
    old_ids = [identity for identity, _provider in was]
    new_ids = [identity for identity, _provider in now]
    if old_ids == new_ids or not old_ids or not new_ids:
        return None
    change_key = (RANKING, name)
    if old_ids[0] != new_ids[0]:
        # A new first place: the "fastest" (or cheapest, most accurate) the prose may name.
        return (index, place, change_key, PICK, _("leader"), old_ids[0], new_ids[0])
    start = _first_quoted(old_ids, new_ids)
    return (index, place, change_key, RANKING, _("order"), _ranking_text(old_ids, start), _ranking_text(new_ids, start))

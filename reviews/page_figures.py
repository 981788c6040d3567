"""What reads differently on a page between two states of the data, from the figures its blocks
declare (`articles.figures`): values, picks, and the order of every ranked list."""

from django.utils import translation
from django.utils.translation import gettext as _

from articles.figures import PICK, RANKING, VALUE, page_figures
from articles.formatting import DASH

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
            found.setdefault((index, figure.ranking), {}).setdefault(figure.position, (figure.row, figure.row))
    return {key: [by_position[p] for p in sorted(by_position)] for key, by_position in found.items()}


def _ranking_text(labels):
    shown = labels[:RANKING_SHOWN]
    text = ", ".join(f"{n}. {label}" for n, label in enumerate(shown, start=1))
    return text + (" …" if len(labels) > RANKING_SHOWN else "")


def differences(blocks, before, after, lang):
    """[(block index, place, key, kind, figure, old text, new text)] for what reads differently."""
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
                     was_text, now_text)
                )
        old_rankings, new_rankings = rankings(old), rankings(new)
        places = {pf.block_index: pf.place for pf in list(old.values()) + list(new.values())}
        for key in old_rankings.keys() & new_rankings.keys():
            changes.extend(_ranking_change(key, places[key[0]], old_rankings[key], new_rankings[key]))
    return changes


def _ranking_change(key, place, was, now):
    index, name = key
    old_ids, old_labels = [i for i, _l in was], [label for _i, label in was]
    new_ids, new_labels = [i for i, _l in now], [label for _i, label in now]
    if old_ids == new_ids or not old_ids or not new_ids:
        return []
    change_key = (RANKING, name)
    if old_ids[0] != new_ids[0]:
        # A new first place: the "fastest" (or cheapest, most accurate) the prose may name.
        return [(index, place, change_key, PICK, _("leader"), old_labels[0], new_labels[0])]
    return [(index, place, change_key, RANKING, _("order"), _ranking_text(old_labels), _ranking_text(new_labels))]

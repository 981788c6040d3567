"""One cache "generation" for all benchmark data: a refresh bumps it and every cached fragment
keyed on it is invalidated at once (the djangoproject.com dashboard pattern)."""

import time

from django.core.cache import cache

GENERATION_KEY = "benchmarks:data-generation"


def data_generation():
    generation = cache.get(GENERATION_KEY)
    if generation is None:
        generation = int(time.time() * 1000)
        cache.add(GENERATION_KEY, generation, timeout=None)
        generation = cache.get(GENERATION_KEY, generation)
    return generation


def bump_data_generation():
    """Call after published data changed (a refresh, an import, a correction)."""
    try:
        return cache.incr(GENERATION_KEY)
    except ValueError:
        generation = int(time.time() * 1000)
        cache.set(GENERATION_KEY, generation, timeout=None)
        return generation

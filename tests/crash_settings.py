"""Settings of the crash tests' application processes (tests/crash_app.py): the test settings, on the
database in TEST_DATABASE_URL, with the cache key prefix the test chose for the scenario, so the
processes of one scenario share their cache and no other test run sees it."""

import os

from config.cache_backend import redis_cache
from config.settings.test import *  # noqa: F401,F403
from config.settings.test import REDIS_URL

CACHES = {"default": redis_cache(REDIS_URL, os.environ["CRASH_CACHE_PREFIX"], RETRY_AFTER_SECONDS=0.2)}

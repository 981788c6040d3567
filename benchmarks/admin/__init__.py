"""The Wagtail admin for benchmark data, one module per concern; `benchmarks.wagtail_hooks` imports them
so their viewsets and hooks register.

- `catalog`, `choosers`: providers, models, endpoints, sources and their choosers
- `host_endpoints`, `host_endpoints_form`: a new host's endpoints (provider × models × tiers) in one form
- `snapshots`, `prices`, `imports`: measured data, prices, file uploads
- `menu`: the "Benchmark data" menu and cache invalidation after edits
- `refresh_records`, `refresh_settings`, `refresh_actions`, `refresh_replay`, `data_changed`: the Celery refresh
"""

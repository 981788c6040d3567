"""Window sizes the browser tests use (CSS pixels): a desktop and a common phone width."""

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 740}

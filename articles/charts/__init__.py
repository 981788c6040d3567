"""Charts drawn on the server as inline SVG (no JavaScript): shared scales, ticks and label placement."""

"""Live data references inside rich text (issue 9)."""

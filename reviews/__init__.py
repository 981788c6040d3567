"""Review of changed figures: what a refresh or a correction changed on which published pages."""

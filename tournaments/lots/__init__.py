"""A lot is drawn once (docs/rules.md §4, RULES.md §4): every proposal that uses the lot
is fixed when first shown and stored with its seed, so a reload shows the same; a redraw
is an explicit director action, logged with its reason. ``models`` holds the stored lot,
``services`` draws it (once) and redraws it."""

"""The display path, one way: an engine observation -> the table's view model (`table_view`,
pure) -> the fragments (`fragments`, the one template render per push or answer), with the
French words in `vocabulary` and the sockets' per-version game cache in `game_cache`. Nothing
here writes; the reads come from games.selectors."""

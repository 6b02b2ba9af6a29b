"""Games that exist only for the tests, and the registry that serves them
(``MAGNATE_GAMES=tests.games.registry:GAMES``)."""

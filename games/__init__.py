"""Games: the rules engine, bots, game models, services, pages and API."""

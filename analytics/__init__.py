"""Analytics: projections fed by game events, statistics pages and tasks."""

"""The REST API under /api/v1/: thin DRF endpoints over the services and selectors."""

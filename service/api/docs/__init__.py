"""The documentation served: the OpenAPI document, the problem pages, the docs page."""

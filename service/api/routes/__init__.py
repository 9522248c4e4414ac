"""The controllers: one per resource, each route a few lines that call the application."""

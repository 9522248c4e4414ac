"""The reference web client: its files, served at /play by its one server module."""

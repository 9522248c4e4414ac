"""The Western family (classic, wild, Boathouse, Knock, Wrotham): one engine whose
variants are combinations of features (`presets.Features`)."""

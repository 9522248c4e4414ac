"""`rummy arena`: bot levels against each other, on mirrored deals, in processes,
each pairing stopped as soon as a sequential test settles it (docs/bots.md,
"The arena")."""

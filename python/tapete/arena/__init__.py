"""Arenas: matches between bots over shared deals, and their statistics."""

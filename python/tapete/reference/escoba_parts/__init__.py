"""The parts of the Escoba reference engine (``tapete.reference.escoba``), one rule topic a module:
cards and actions, options, the position and its optional parts (one ``Feature`` a module),
captures, scoring, dealing, turns, the end of a deal, what a seat sees, and reading a state back."""

"""The parts of the Escoba reference engine (``tapete.reference.escoba``), one rule topic a module:
cards and actions, options, captures, scoring, dealing, fidasse, the end of a deal, what a seat
sees, and reading a state back."""

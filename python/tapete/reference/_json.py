"""The shared state-JSON checks now live in ``_base``; this name stays for the engines that
import it from here."""

from ._base import is_int, read_state_object

__all__ = ["is_int", "read_state_object"]

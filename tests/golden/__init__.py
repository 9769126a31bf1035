"""The golden vectors of the formats (docs/design.md §4.1) and the script that writes them."""

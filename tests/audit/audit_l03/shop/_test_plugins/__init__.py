"""Test fixtures of the shop's plugin tests: no worker imports them."""

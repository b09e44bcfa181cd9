"""Puts the stand-in installed libraries of tests/audit/libs/site-packages on the import path."""
import os
import sys

SITE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs", "site-packages")
if SITE not in sys.path:
    sys.path.append(SITE)

"""Lesson 03's apps and their application package (shop), in a package of their own: the audit scans it whole."""

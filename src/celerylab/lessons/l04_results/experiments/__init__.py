"""Lesson 04's experiments: each module holds the calls of one measured cell, which shows its source."""

"""The course site: lesson pages, glossary and search generated from the executed notebooks, and offline link checks."""

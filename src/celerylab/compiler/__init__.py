"""The notebook compiler: one bilingual lesson.md -> lesson, exercise and solution notebooks in pt and en."""

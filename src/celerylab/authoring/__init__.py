"""Tools for course authors: the course's consistency check and the new-lesson scaffold."""

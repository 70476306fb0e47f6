"""The director's console: every page needs a staff login (see ``common``)."""

"""URL modules split by audience: director (login), sheets (login), tablet, public."""

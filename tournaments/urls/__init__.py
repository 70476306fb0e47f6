"""URL modules split by audience: director (login), sheets (login), tablet, public."""

from django.urls import register_converter

from tournaments.ids import IdConverter

# Every number in a URL is read by the one id parser (tournaments/ids.py).
register_converter(IdConverter, "id")

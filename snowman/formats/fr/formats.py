"""Canadian French formats for `fr` (the Office québécois de la langue française's usage):
24-hour times written "14 h 05", dates "1 décembre 2026", a space between thousands and a
decimal comma. Django's own `fr` formats are France's ("14:05")."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "G\xa0\\h\xa0i"
DATETIME_FORMAT = "j F Y, G\xa0\\h\xa0i"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d G\xa0\\h\xa0i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
FIRST_DAY_OF_WEEK = 0  # Sunday, as Canadian calendars
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"
NUMBER_GROUPING = 3

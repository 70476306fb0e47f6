"""The Snowman rules as pure Python: no Django, no database, no clock of its own.

Everything here takes plain values (dataclasses, ints, datetimes, a random generator)
and returns plain values, so it can be tested exhaustively without a database and
reused by services, views, commands and the simulator alike.
"""

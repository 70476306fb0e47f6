"""The scorekeeper's tablet as it reads: the link and session (``link``), which match a
request acts on (``lookup``), the state as JSON (``state``) and whether it changed
(``version``). What a table does is ``services.tablet``."""

"""A player's own record: their events, rounds, partners and rivals, hands,
rating over time and results against expectation; their public-name choices; the file of
everything held about them; and their erasure on request.

The record is reached by the person's private link (a registration pass of an event they
played) and by the club's directors, nobody else. This package reads the core and the
series; the core imports nothing of it.
"""

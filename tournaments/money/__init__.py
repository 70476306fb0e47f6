"""The money of an event: entry fees at the door, the purse and its payout,
the side pots from the hand log, the night's reconciliation and the presenter's sheet.

A context of its own: it reads the core (models, reads, services, access) and the prizes,
and nothing in the core imports it; the director's pages link here by URL name."""

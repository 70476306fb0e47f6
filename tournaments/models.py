"""Every model of the app, for Django's registry (one app label, models by subject in each
package). Code imports a model from its own module, never from here (tests/test_context_map.py)."""

from tournaments.core.models.event import (
    Club,
    Division,
    Player,
    RoundKind,
    RoundStatus,
    SeatPosition,
    TeamChoice,
    Tournament,
    TournamentQuerySet,
    TournamentStatus,
)
from tournaments.core.models.log import Activity
from tournaments.core.models.lots import DrawnLot
from tournaments.core.models.people import (
    EventResult,
    ImportedEvent,
    Person,
    PersonEvent,
    PersonLink,
    PersonProposal,
)
from tournaments.core.models.play import (
    HandEntry,
    HandEntryQuerySet,
    HandOutcome,
    HandPhase,
    HandState,
    Match,
    PaperTable,
    TableLink,
    TableLinkQuerySet,
    WinnerOverride,
)
from tournaments.core.models.rounds import (
    Round,
    RoundPause,
    RoundQuerySet,
    Seating,
    SeatingQuerySet,
    SitOut,
    Substitution,
    TieBreak,
)
from tournaments.core.models.series import Series, SeriesEvent
from tournaments.core.models.staff import AccountLanguage, Invitation, Membership, StaffRole
from tournaments.core.models.stationary import StationaryMark, StationaryMarkQuerySet
from tournaments.devices.models import HelpReason, HelpRequest, HelpStatus
from tournaments.money.models import MoneyEntry, MoneySettings, PayoutLine
from tournaments.prizes.models import DefinedPrize, PrizeFigure
from tournaments.publishing.models import Publication, PublishGrant
from tournaments.registration.models import (
    ACTIVE_REGISTRATION,
    PLACE_HOLDING,
    Registration,
    RegistrationAttempt,
    RegistrationPass,
    RegistrationSettings,
    RegistrationStatus,
)

__all__ = [
    "Division",
    "SeatPosition",
    "TeamChoice",
    "TournamentStatus",
    "RoundKind",
    "RoundStatus",
    "Club",
    "TournamentQuerySet",
    "Tournament",
    "Player",
    "Activity",
    "DrawnLot",
    "Person",
    "PersonLink",
    "PersonEvent",
    "PersonProposal",
    "ImportedEvent",
    "EventResult",
    "Match",
    "HandEntryQuerySet",
    "HandOutcome",
    "HandPhase",
    "HandState",
    "HandEntry",
    "WinnerOverride",
    "TableLinkQuerySet",
    "TableLink",
    "PaperTable",
    "RoundQuerySet",
    "Round",
    "RoundPause",
    "SeatingQuerySet",
    "Seating",
    "SitOut",
    "StationaryMarkQuerySet",
    "StationaryMark",
    "Substitution",
    "TieBreak",
    "Series",
    "SeriesEvent",
    "StaffRole",
    "Membership",
    "AccountLanguage",
    "Invitation",
    "HelpStatus",
    "HelpReason",
    "HelpRequest",
    "PrizeFigure",
    "DefinedPrize",
    "Publication",
    "PublishGrant",
    "RegistrationStatus",
    "RegistrationSettings",
    "Registration",
    "RegistrationPass",
    "RegistrationAttempt",
    "PLACE_HOLDING",
    "ACTIVE_REGISTRATION",
    "MoneySettings",
    "PayoutLine",
    "MoneyEntry",
]

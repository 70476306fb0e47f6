"""The activity log's lines, by key.

A service logs ``said("play.undid_hand", match=..., n=...)``: the row keeps the key and
the arguments, and each reader sees the line in their own language when the page is read
(logtext.render). The key, not the English sentence, is what is stored, so a line whose
wording is mended later reads mended in every old row too, in both languages.
"""

from django.utils.translation import gettext_noop

LINES: dict[str, str] = {
    "help_requests.table_call_resolved_after": gettext_noop(
        "Table %(table)s's call resolved by %(by)s after %(took)s."
    ),
    "help_requests.table_called_director": gettext_noop(
        "Table %(table)s called the director (%(reason)s)."
    ),
    "help_requests.table_called_director_2": gettext_noop("Table %(table)s called the director."),
    "help_requests.table_on_way": gettext_noop("Table %(table)s: %(by)s is on the way."),
    "kiosk.device_settings_changed": gettext_noop("Device settings changed: %(changes)s."),
    "kiosk.director_pin_changed": gettext_noop("director PIN changed"),
    "kiosk.kiosk_mode_off": gettext_noop("kiosk mode off"),
    "kiosk.kiosk_mode_on": gettext_noop("kiosk mode on"),
    "kiosk.table_wrong_director_pins": gettext_noop(
        "Table %(table)s: %(tries)s wrong director PINs; locked for %(minutes)s min."
    ),
    "kiosk.tablet_silent_after": gettext_noop("a tablet is silent after %(old)s → %(new)s s"),
    "lots.redrawn": gettext_noop(
        "The lot for %(purpose)s drawn again: seed %(seed)s (was %(was)s)."
    ),
    "money.counted": gettext_noop("Drawer counted: %(amount)s."),
    "money.fee": gettext_noop("%(name)s paid the entry fee: %(amount)s (%(method)s)."),
    "money.fifty_drawn": gettext_noop(
        "50/50 drawn: ticket %(ticket)s of %(tickets)s wins %(amount)s (seed %(seed)s)."
    ),
    "money.fifty_sold": gettext_noop("50/50 tickets sold: %(tickets)s for %(amount)s."),
    "money.fines": gettext_noop("%(name)s paid side-pot fines: %(amount)s."),
    "money.line_added": gettext_noop("Payout line added: %(line)s."),
    "money.line_removed": gettext_noop("Payout line removed: %(line)s."),
    "money.paid_out": gettext_noop("Payout confirmed: %(count)s payments, %(amount)s."),
    "money.pots_drawn": gettext_noop("Side-pot draw seed recorded: %(seed)s."),
    "money.refund": gettext_noop("%(name)s refunded: %(amount)s."),
    "money.settings": gettext_noop("Money settings changed."),
    "money.sponsor": gettext_noop("Sponsor %(name)s: %(amount)s."),
    "money.payout_undone": gettext_noop("Payout undone: %(count)s payments."),
    "money.undone": gettext_noop("Money entry undone: %(kind)s, %(what)s, %(amount)s."),
    "money.waived": gettext_noop("%(name)s's entry fee waived."),
    "play.call_hand_being_played": gettext_noop("%(match)s: at the call, a hand was being played."),
    "play.call_hand_being_played_2": gettext_noop(
        "%(match)s: at the call, a hand was being played (was: no)."
    ),
    "play.call_no_hand_being": gettext_noop("%(match)s: at the call, no hand was being played."),
    "play.call_no_hand_being_2": gettext_noop(
        "%(match)s: at the call, no hand was being played (was: yes)."
    ),
    "play.closed_finished_result_accepted": gettext_noop(
        "%(match)s: closed (Finished); result accepted."
    ),
    "play.dispute_resolved_disputed_result": gettext_noop(
        "%(match)s: dispute resolved (Disputed); result accepted."
    ),
    "play.first_dealer_set": gettext_noop("%(match)s: first dealer set to %(seat)s."),
    "play.scoresheet_entered": gettext_noop(
        "%(match)s: %(n)s hands keyed from the paper scoresheet (%(score)s)."
    ),
    "play.paper_marked": gettext_noop("Table %(table)s is scored on paper."),
    "play.paper_unmarked": gettext_noop("Table %(table)s is scored on a tablet again."),
    "play.first_dealer_set_dealers": gettext_noop(
        "%(match)s: first dealer set to %(seat)s (was %(was)s); the dealers of %(n)s hands follow."
    ),
    "play.hand_arrived_after_call": gettext_noop(
        "%(match)s: hand %(n)s arrived after the call, entered at %(at)s by the tablet's "
        "clock: kept as a regular hand."
    ),
    "play.hand_corrected": gettext_noop("%(match)s: hand %(n)s corrected (%(score)s)."),
    "play.hand_inserted": gettext_noop("%(match)s: hand inserted at %(n)s."),
    "play.hand_inserted_hands_moved": gettext_noop(
        "%(match)s: hand inserted at %(n)s; hands %(n)s–%(last)s moved one up."
    ),
    "play.late_synced_hand_accepted": gettext_noop(
        "%(match)s: late-synced hand %(n)s accepted as regular."
    ),
    "play.late_synced_hand_reclassified": gettext_noop(
        "%(match)s: late-synced hand %(n)s reclassified as %(phase)s."
    ),
    "play.no_points": gettext_noop("no points"),
    "play.result_confirmed": gettext_noop("%(match)s: result confirmed by %(by)s."),
    "play.result_disputed": gettext_noop("%(match)s: result disputed by %(by)s."),
    "play.scorekeeper_changed": gettext_noop(
        "%(match)s: score kept by %(seat)s (was %(was)s); only the other team confirms."
    ),
    "play.undid_hand": gettext_noop("%(match)s: undid hand %(n)s."),
    "play.winner_set_recorded": gettext_noop(
        "%(match)s: winner set to %(winner)s (recorded %(recorded)s)."
    ),
    "players.added_house_player": gettext_noop("Added house player %(name)s (%(division)s)."),
    "players.checked": gettext_noop("Checked in %(names)s."),
    "players.imported_players_from_csv": gettext_noop("Imported %(n)s players from CSV."),
    "players.now": gettext_noop("%(old)s (%(old_division)s) is now %(name)s (%(division)s)."),
    "players.registered_division": gettext_noop("Registered %(name)s in division %(division)s."),
    "players.reinstated_waiting_for_next": gettext_noop(
        "Reinstated %(name)s: waiting for the next round."
    ),
    "players.seating_discarded_seat_it": gettext_noop(
        "%(withdrew)s The seating of %(round)s was discarded: seat it again."
    ),
    "players.undid_check": gettext_noop("Undid check-in of %(names)s."),
    "players.withdrew": gettext_noop("%(name)s withdrew"),
    "players.withdrew_after_round": gettext_noop("Withdrew %(name)s after round %(n)s."),
    "players.withdrew_before_round_1": gettext_noop("Withdrew %(name)s before round 1."),
    "players.stationary_marked": gettext_noop(
        "Marked %(name)s stationary at table %(table)s from round %(n)s."
    ),
    "players.stationary_ended": gettext_noop("%(name)s is no longer stationary from round %(n)s."),
    "prizes.prize_added": gettext_noop("Prize added: %(name)s."),
    "prizes.prize_removed": gettext_noop("Prize removed: %(name)s."),
    "publish.publishing_failed": gettext_noop("Publishing failed: %(error)s"),
    "publish.results_go": gettext_noop("Results go to %(url)s."),
    "publish.results_published": gettext_noop("Results published to %(url)s."),
    "registration.accepted_application_division": gettext_noop(
        "Accepted %(name)s's application in division %(division)s."
    ),
    "registration.applied_online_for_place": gettext_noop("%(name)s applied online, for a place."),
    "registration.applied_online_on_waitlist": gettext_noop(
        "%(name)s applied online, on the waitlist."
    ),
    "registration.asked_change_application": gettext_noop(
        "Asked %(name)s to change the application."
    ),
    "registration.changed_application": gettext_noop("%(old)s changed the application (%(name)s)."),
    "registration.declined_application": gettext_noop("Declined %(name)s's application."),
    "registration.invited_players_from_csv": gettext_noop("Invited %(n)s players from CSV."),
    "registration.moved_place_on_waitlist": gettext_noop(
        "Moved %(name)s to place %(n)s on the waitlist."
    ),
    "registration.none": gettext_noop("none"),
    "registration.online_registration_closed_caps": gettext_noop(
        "Online registration closed; caps: %(caps)s."
    ),
    "registration.online_registration_open_caps": gettext_noop(
        "Online registration open; caps: %(caps)s."
    ),
    "registration.played_as": gettext_noop(
        "Played at the hall: its results arrived as %(event)s; the players' links lead there."
    ),
    "registration.promoted_from_waitlist_place": gettext_noop(
        "Promoted %(name)s from the waitlist: a place freed."
    ),
    "registration.revoked_link_new_one": gettext_noop(
        "Revoked %(name)s's link; a new one was made."
    ),
    "registration.took_up_invitation_for": gettext_noop(
        "%(name)s took up the invitation, for a place."
    ),
    "registration.took_up_invitation_on": gettext_noop(
        "%(name)s took up the invitation, on the waitlist."
    ),
    "registration.total": gettext_noop("total %(n)s"),
    "registration.withdrew_online": gettext_noop("%(name)s withdrew online."),
    "rehearsal.turned_event_into_rehearsal": gettext_noop("Turned the event into a rehearsal."),
    "rehearsal.turned_rehearsal_into_real": gettext_noop("Turned the rehearsal into a real event."),
    "results_import.imported_players_matches_from": gettext_noop(
        "Imported %(players)s players and %(matches)s matches from %(file)s (%(digest)s)."
    ),
    "results_import.results_file": gettext_noop("a results file"),
    "rounds.added_house_player_for": gettext_noop(
        "Added house player %(name)s (%(division)s) for round 1."
    ),
    "rounds.closed_table": gettext_noop("closed table"),
    "rounds.closed_table_2": gettext_noop("closed table(s) %(tables)s"),
    "rounds.drew_round_1_tables": gettext_noop(
        "Drew round 1: %(tables)s tables, seed %(seed)s.%(notes)s"
    ),
    "rounds.extension_set_min": gettext_noop("%(match)s: extension set to %(minutes)s min."),
    "rounds.finalized": gettext_noop("%(round)s finalized."),
    "rounds.house": gettext_noop("house"),
    "rounds.house_player": gettext_noop("house player %(name)s"),
    "rounds.pass_on": gettext_noop("pass-on"),
    "rounds.paused": gettext_noop("%(round)s paused."),
    "rounds.remedy": gettext_noop("Remedy: %(remedy)s."),
    "rounds.reopened": gettext_noop("%(round)s reopened."),
    "rounds.reopened_seating_discarded": gettext_noop(
        "%(round)s reopened; the seating of %(dropped)s was discarded."
    ),
    "rounds.resumed": gettext_noop("%(round)s resumed."),
    "rounds.seated_rotation": gettext_noop("Seated %(round)s by rotation%(changes)s."),
    "rounds.seating_discarded": gettext_noop("Seating of %(round)s discarded: %(why)s."),
    "rounds.sitting_out": gettext_noop("sitting out: %(names)s"),
    "rounds.sitting_out_chosen_director": gettext_noop(
        "Sitting out (chosen by the director): %(names)s."
    ),
    "rounds.sitting_out_drawn_lot": gettext_noop("Sitting out (drawn by lot): %(names)s."),
    "rounds.started": gettext_noop("%(round)s started."),
    "rounds.swapped": gettext_noop("%(round)s: swapped %(first)s and %(second)s."),
    "rounds.table": gettext_noop("table %(table)s %(seat)s: %(player)s [%(kind)s]"),
    "rounds.table_for": gettext_noop(
        "table %(table)s %(seat)s: %(player)s (for %(out)s) [%(kind)s]"
    ),
    "rounds.table_tablet_link_reissued": gettext_noop("Table %(table)s: tablet link reissued."),
    "rounds.tables_sitting_out_round": gettext_noop(
        "%(tables)s tables; sitting out round 1: %(a)s in A, %(b)s in B"
    ),
    "rounds.tables_with_house_players": gettext_noop(
        "%(tables)s tables with house players: %(a)s in A, %(b)s in B"
    ),
    "rounds.time_called": gettext_noop("Time called in %(round)s."),
    "rounds.time_called_extended_tables": gettext_noop(
        "Time called in %(round)s; extended tables keep their extension: %(tables)s."
    ),
    "rounds.time_called_extended_tables_2": gettext_noop(
        "Time called in %(round)s, extended tables included."
    ),
    "rounds.waiting": gettext_noop("waiting"),
    "standings.division_tie_broken": gettext_noop("Division %(division)s tie broken: %(names)s."),
    "standings.final_seeded": gettext_noop("Final seeded: %(seats)s."),
    "standings.final_seeded_skipped": gettext_noop(
        "Final seeded: %(seats)s. Skipped: %(skipped)s."
    ),
    "standings.standings_revealed_players": gettext_noop("Standings revealed to the players."),
    "standings.tournament_finished_division_pair": gettext_noop(
        "Tournament finished: division %(division)s pair champions."
    ),
    "standings.withdrawn": gettext_noop("%(name)s (withdrawn)"),
    "standings.withdrawn_after_round": gettext_noop("%(name)s (withdrawn after round %(n)s)"),
    "substitutions.house": gettext_noop("%(name)s (house)"),
    "substitutions.instead_corrected": gettext_noop("%(player)s instead of %(wrong)s (corrected)"),
    "substitutions.replaces": gettext_noop("%(player)s replaces %(out)s"),
    "substitutions.seat_from_hand": gettext_noop(
        "%(match)s seat %(position)s: %(what)s from hand %(hand)s."
    ),
    "substitutions.substitution_for_undone": gettext_noop(
        "substitution of %(player)s for %(back)s undone"
    ),
    "table_codes.table_new_device_took": gettext_noop(
        "Table %(table)s: a new device took the table over with its code."
    ),
    "table_codes.table_table_code_re": gettext_noop("Table %(table)s: table code re-issued."),
    "tournaments.created_rehearsal": gettext_noop("Created rehearsal %(name)s."),
    "tournaments.created_tournament": gettext_noop("Created tournament %(name)s."),
    "tournaments.settings_changed": gettext_noop("Settings changed: %(changes)s"),
    "tournaments.settings_changed_name": gettext_noop("Settings changed: name"),
    "transfer.imported_registrations_from_club": gettext_noop(
        "Imported %(n)s registrations from the club site's signed list."
    ),
    "words.final": gettext_noop("Final"),
    "words.seat_player": gettext_noop("%(seat)s %(name)s"),
    "words.seat_points": gettext_noop("%(seat)s %(points)s"),
    "words.team_points": gettext_noop("%(team)s %(points)s"),
    "words.game": gettext_noop("%(round)s game %(game)s"),
    "words.min": gettext_noop("%(m)s min %(s)s s"),
    "words.round": gettext_noop("Round %(n)s"),
    "words.table": gettext_noop("%(round)s table %(table)s"),
}

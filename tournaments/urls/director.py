from django.urls import path

from ..views.director import attendance, events, players, results, rounds

app_name = "director"
T = "<slug:slug>/"
R = T + "rounds/<id:number>/"
TABLE = R + "tables/<id:table>/"
urlpatterns = [
    path("", events.home, name="home"),
    path("tournaments/new/", events.create, name="create"),
    path(T, events.overview, name="tournament"),
    path(T + "settings/", events.settings, name="settings"),
    path(T + "players/", players.players, name="players"),
    path(T + "players/import/", players.import_csv, name="import"),
    path(T + "players/house/", players.house_add, name="house_add"),
    path(T + "players/<id:pk>/edit/", players.player_edit, name="player_edit"),
    path(T + "players/<id:pk>/withdraw/", players.player_withdraw, name="player_withdraw"),
    path(T + "players/<id:pk>/check-in/", players.checkin, name="checkin"),
    path(T + "desk/", players.desk, name="desk"),
    path(T + "draw/", rounds.draw, name="draw"),
    path(T + "draw/remedy/", rounds.draw_remedy, name="draw_remedy"),
    path(T + "rounds/next/", rounds.seat_next, name="seat_next"),
    path(R, rounds.console, name="round"),
    path(R + "board/", rounds.board, name="board"),
    path(R + "seating/", rounds.seating, name="seating"),
    path(R + "seating.csv", rounds.seating_csv, name="seating_csv"),
    path(R + "swap/", rounds.swap, name="swap"),
    path(R + "clock/<slug:action>/", rounds.clock_action, name="clock"),
    path(R + "finalize/", rounds.finalize, name="finalize"),
    path(R + "reopen/", rounds.reopen, name="reopen"),
    path(TABLE, rounds.table_detail, name="table"),
    path(TABLE + "extend/", rounds.table_extend, name="table_extend"),
    path(TABLE + "override/", rounds.table_override, name="table_override"),
    path(TABLE + "close/", rounds.table_close, name="table_close"),
    path(TABLE + "relink/", rounds.table_relink, name="table_relink"),
    path(TABLE + "first-dealer/", rounds.table_first_dealer, name="table_first_dealer"),
    path(TABLE + "answer/", rounds.table_answer, name="table_answer"),
    path(TABLE + "insert/", rounds.table_insert, name="table_insert"),
    path(TABLE + "hands/<id:pk>/late-sync/", rounds.hand_late_sync, name="hand_late_sync"),
    path(TABLE + "substitute/", attendance.table_substitute, name="table_substitute"),
    path(
        TABLE + "substitute/<id:pk>/correct/",
        attendance.table_substitution_correct,
        name="table_substitution_correct",
    ),
    path(TABLE + "hands/<id:pk>/correct/", rounds.hand_correct, name="hand_correct"),
    path(T + "standings/", results.standings, name="standings"),
    path(T + "standings/<str:division>.csv", results.standings_csv, name="standings_csv"),
    path(T + "final/", results.final, name="final"),
    path(T + "final/seed/", results.final_seed, name="final_seed"),
    path(T + "final/tiebreak/", results.final_tiebreak, name="final_tiebreak"),
    path(T + "final/dealer/", results.final_dealer, name="final_dealer"),
    path(T + "final/hand/", results.final_hand, name="final_hand"),
    path(T + "finish/", results.finish, name="finish"),
    path(T + "activity/", results.activity, name="activity"),
]

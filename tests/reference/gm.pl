/*  gm.pl: an independent reference game manager for SIDL3.0, in SWI-Prolog 9.

    It implements docs/semantics.md (§2–§8) and prints the
    `sidl trace` format of shared/trace-format.md, so that its output can be compared
    byte for byte with the Rust engine.  See tests/reference/README.md for the full notes.

    Usage (run from anywhere):
      swipl gm.pl GAME.sidl SCRIPT [--max-chronons N]      trace of a script-driven run
      swipl gm.pl GAME.sidl --script SCRIPT [...]           same
      swipl gm.pl GAME.sidl [--seed S] [--max-chronons N]   trace of a random run (SWI RNG)
      swipl gm.pl GAME.sidl --random-script N [--seed S]    print a random script (<= N chronons)
      swipl gm.pl GAME.sidl --bench N [--seed S]            random games back to back, N chronons
      swipl gm.pl GAME.sidl --batch FILE [--max-chronons N]  many scripts, one game load
    Options: --verbose (notes on stderr: failed do/1 calls, defaults), --inference-limit N
    (per chronon / per state evaluation; exceeding it is a runtime error).

    Exit status: 0 ok; 1 game does not load, bad script or bad command line; 2 runtime error
    (after printing {"chronon":K,"error":"..."}); 3 a script-driven chronon needed a nature
    switch with more than one action but no valid nature/2 line (the reference manager
    never draws in script mode; a single-action nature switch takes its action).
    Inside the program these statuses are the exceptions gm_exit(Status), caught by main/0
    (and, for 2 and 3, by the batch loop, which goes on with the next script).
*/

:- initialization(main, main).

:- use_module(library(lists)).
:- use_module(library(apply)).

                 /*******************************
                 *     STATE AND GAME MODULES    *
                 *******************************/

% sidl_state holds the state of the running game:
%   fw(W)          every fact, in insertion order (used when W is not a proper list)
%   f(E1,...,En)   the same facts split by length, so that SWI's JIT (multi-)argument
%                  indexing applies to fact([_, _, X, Y]) etc.  Same insertion order.
%   dz(I, A)       does/2 of the running chronon (submitted and drawn actions only)
%   pl(N)          players in order
%   acc(N, M)      accounts, in player order
:- dynamic sidl_state:fw/1, sidl_state:dz/2, sidl_state:pl/1, sidl_state:acc/2.
:- forall(between(0, 64, N), dynamic(sidl_state:f/N)).

max_indexed_len(64).

% sidl_lib: body keywords and the SIDL library of §8.  The game module (sidl_game) has
% sidl_lib as its default import module, and sidl_lib has system: a game sees these,
% the SWI system predicates and autoloadable libraries (lists, apply, ...), never the
% predicates of this manager.  A game's own definition of a name shadows the library one.
sidl_lib:player(N) :- sidl_state:pl(N).
sidl_lib:fact(W) :- gm_fact(W).
sidl_lib:create(W) :- gm_create(W).
sidl_lib:delete(W) :- gm_delete(W).
sidl_lib:tocreate(W) :- b_getval(gm_cr, L), reverse(L, R), member(W, R).
sidl_lib:todelete(W) :- b_getval(gm_de, L), reverse(L, R), member(W, R).
sidl_lib:does(I, A) :- sidl_state:dz(I, A).
sidl_lib:maxmember(L, M) :- gm_extreme(L, max, M).
sidl_lib:minmember(L, M) :- gm_extreme(L, min, M).
sidl_lib:getsubset(Sub, Set) :- gm_getsubset(Sub, Set).

:- set_module(sidl_lib:base(system)).

body_keyword(player/1).
body_keyword(fact/1).
body_keyword(create/1).
body_keyword(delete/1).
body_keyword(tocreate/1).
body_keyword(todelete/1).
body_keyword(does/2).

head_keyword(game/1).
head_keyword(init/1).
head_keyword(init/2).
head_keyword(hidden/2).
head_keyword(legal/1).
head_keyword(switch/2).
head_keyword(unlimited/2).
head_keyword(owned/2).
head_keyword(default/2).
head_keyword(do/1).
head_keyword(payoff/2).

library_pred(maxmember/2).
library_pred(minmember/2).
library_pred(getsubset/2).

% fact/1: proper lists go to the per-length table, anything else scans fw/1.
gm_fact(W) :-
    '$skip_list'(N, W, T), T == [], N =< 64, !,     % a proper list of at most 64 words
    G =.. [f|W],
    sidl_state:G.
gm_fact(W) :-
    sidl_state:fw(W).

gm_is_fact(W) :-                       % W ground
    gm_fact(W), !.

gm_create(W) :-
    (   ground(W) -> true
    ;   throw(error(instantiation_error, context(create/1, 'create/1 needs a ground word')))
    ),
    \+ gm_is_fact(W),
    b_getval(gm_cr, L),
    \+ memberchk(W, L),
    b_setval(gm_cr, [W|L]).

gm_delete(W) :-
    gm_fact(W),
    b_getval(gm_de, L),
    \+ memberchk(W, L),
    b_setval(gm_de, [W|L]).

gm_extreme([H|T], Which, M) :-
    gm_extreme_(T, Which, H, M0),
    M = M0.

gm_extreme_([], _, M, M).
gm_extreme_([H|T], max, M0, M) :- !,
    (   H > M0 -> gm_extreme_(T, max, H, M) ; gm_extreme_(T, max, M0, M) ).
gm_extreme_([H|T], min, M0, M) :-
    (   H < M0 -> gm_extreme_(T, min, H, M) ; gm_extreme_(T, min, M0, M) ).

% getsubset(Sub, Set): [] first, then by increasing size, each size in colexicographic
% order of positions, elements in Set's order.
gm_getsubset(Sub, Set) :-
    must_be(list, Set),
    length(Set, N),
    between(0, N, K),
    colex(K, N, Ps),
    positions_elements(Ps, Set, Sub).

colex(0, _, []) :- !.
colex(K, Lim, S) :-
    K1 is K - 1,
    Hi is Lim - 1,
    between(K1, Hi, M),
    colex(K1, M, S0),
    append(S0, [M], S).

positions_elements([], _, []).
positions_elements([P|Ps], Set, [E|Es]) :-
    nth0(P, Set, E),
    positions_elements(Ps, Set, Es).

                 /*******************************
                 *           LOADING            *
                 *******************************/

% The operator table of the language (engine/src/syntax/ops.rs): SWI operators that are
% not in it are hidden in the game module; xor, ':' and '|' get the table's priorities.
hidden_swi_op(1, fx, $).
hidden_swi_op(100, yfx, '.').
hidden_swi_op(1200, xfx, =>).
hidden_swi_op(1150, fx, meta_predicate).
hidden_swi_op(1150, fx, module_transparent).
hidden_swi_op(1150, fx, public).
hidden_swi_op(1150, fx, table).
hidden_swi_op(1150, fx, thread_initialization).
hidden_swi_op(1150, fx, thread_local).
hidden_swi_op(1150, fx, volatile).
hidden_swi_op(700, xfx, :<).
hidden_swi_op(700, xfx, >:<).
hidden_swi_op(700, xfx, =@=).
hidden_swi_op(700, xfx, \=@=).
hidden_swi_op(700, xfx, as).
hidden_swi_op(800, xfx, :=).
hidden_swi_op(400, yfx, rdiv).

setup_game_module :-
    forall(hidden_swi_op(_, T, Op), op(0, T, sidl_game:Op)),
    op(500, yfx, sidl_game:xor),
    op(200, xfy, sidl_game:(:)),
    set_module(sidl_game:base(sidl_lib)),
    forall(head_keyword(N/A), dynamic(sidl_game:N/A)).

load_game(File) :-
    setup_game_module,
    catch(open(File, read, S), E, ( message_text(E, M), format(user_error, "gm: ~w~n", [M]), gm_exit(1) )),
    nb_setval(gm_load_errors, 0),
    read_clauses(S, File, Clauses),
    close(S),
    maplist(add_clause(File), Clauses),
    nb_getval(gm_load_errors, NErr),
    (   NErr > 0
    ->  format(user_error, "gm: ~w: ~d error(s); the game does not load~n", [File, NErr]),
        gm_exit(1)
    ;   true
    ),
    findall(PI, ( member(C-_, Clauses), clause_head(C, H), functor(H, Nm, Ar), PI = Nm/Ar ), PIs0),
    sort(PIs0, PIs),
    forall(member(PI, PIs), catch(compile_predicates([sidl_game:PI]), _, true)).

load_error(File, Line, Fmt, Args) :-
    nb_getval(gm_load_errors, N0), N is N0 + 1, nb_setval(gm_load_errors, N),
    format(user_error, "~w:~w: error: ", [File, Line]),
    format(user_error, Fmt, Args), nl(user_error).

load_warning(File, Line, Fmt, Args) :-
    format(user_error, "~w:~w: warning: ", [File, Line]),
    format(user_error, Fmt, Args), nl(user_error).

read_clauses(S, File, Clauses) :-
    catch(read_term(S, T, [module(sidl_game), term_position(P)]), E, true),
    (   nonvar(E)
    ->  (   E = error(syntax_error(What), Where),
            ( Where = stream(_, Line, LinePos, _) ; Where = file(_, Line, LinePos, _) )
        ->  Col is LinePos + 1,
            syntax_hint(What, Hint),
            load_error(File, Line, "syntax error (column ~w): ~w~w", [Col, What, Hint])
        ;   message_text(E, Msg),
            load_error(File, '?', "~w", [Msg])
        ),
        read_clauses(S, File, Clauses)
    ;   T == end_of_file
    ->  Clauses = []
    ;   stream_position_data(line_count, P, Line),
        Clauses = [T-Line|Rest],
        read_clauses(S, File, Rest)
    ).

syntax_hint(operator_expected, " (a functor name must touch its '(': remove the space before '('; ':-' must not contain a space)") :- !.
syntax_hint(_, "").

clause_head((H :- _), H) :- !.
clause_head(H, H).

add_clause(File, (:- D)-Line) :- !,
    load_warning(File, Line, "directive ~q is not supported and was not executed", [D]).
add_clause(File, C-Line) :-
    clause_head(C, H),
    (   var(H)
    ->  load_error(File, Line, "a clause head must not be a variable", [])
    ;   \+ callable(H)
    ->  load_error(File, Line, "~q cannot be a clause head", [H])
    ;   sub_term(S, H), compound(S), S = (_:_)
    ->  load_error(File, Line, "the clause head ~q contains ':' (did you mean ':-'? write it without a space)", [H])
    ;   predicate_property(system:H, iso)
    ->  functor(H, N, A),
        load_error(File, Line, "~q is an ISO built-in predicate and cannot be redefined", [N/A])
    ;   functor(H, N, A), body_keyword(N/A)
    ->  load_error(File, Line, "~w is a body keyword and cannot be defined by a game", [N/A])
    ;   functor(H, N, A),
        (   library_pred(N/A) -> note_override(File, Line, N/A) ; true ),
        (   predicate_property(system:H, defined), \+ predicate_property(sidl_game:H, dynamic)
        ->  note_override(File, Line, N/A),
            catch(redefine_system_predicate(sidl_game:H), _, true)
        ;   true
        ),
        catch(assertz(sidl_game:C), E,
              ( message_text(E, M), load_error(File, Line, "~w", [M]) ))
    ).

note_override(File, Line, PI) :-
    (   nb_current(gm_overridden, L), memberchk(PI, L)
    ->  true
    ;   ( nb_current(gm_overridden, L0) -> true ; L0 = [] ),
        nb_setval(gm_overridden, [PI|L0]),
        load_warning(File, Line, "the game's own ~w replaces the library predicate", [PI])
    ).

                 /*******************************
                 *        INITIALISATION        *
                 *******************************/

reset_state :-
    forall(sidl_state:fw(W), del_fact(W)),
    retractall(sidl_state:dz(_, _)),
    retractall(sidl_state:pl(_)),
    retractall(sidl_state:acc(_, _)).

% reset_run(+Seed): everything a run changes, back to how a fresh process starts it: the
% state (facts, does/2, players, accounts), the global variables of a run (gm_players; the
% schedules gm_cr and gm_de exist only during a chronon, b_setval/2 undoes them) and the
% RNG.  The load-time globals (gm_load_errors, gm_overridden) and the options (gm_verbose,
% gm_inference_limit) do not change while games run.  A game that changes SWI's global
% state itself (assert/1, nb_setval/2, flag/3: not SIDL built-ins) is not reset.
reset_run(Seed) :-
    reset_state,
    forall(member(G, [gm_players, gm_cr, gm_de]), ( nb_current(G, _) -> nb_delete(G) ; true )),
    set_random(seed(Seed)).

init_game :-
    reset_state,
    findall(W, sidl_game:init(W), Ws),
    forall(member(W, Ws),
           (   ground(W) -> true
           ;   rt_error("init/1 gave the non-ground word ~k", [W]) )),
    forall(member(W, Ws), ( gm_is_fact(W) -> true ; add_fact(W) )),
    findall(N-M, sidl_game:init(N, M), NMs),
    forall(member(N-M, NMs),
           (   sidl_state:pl(N0), N0 == N
           ->  true
           ;   ground(N) -> true
           ;   rt_error("init/2 gave the non-ground player ~k", [N]) )),
    add_players(NMs),
    findall(P, sidl_state:pl(P), Ps),
    nb_setval(gm_players, Ps).

add_players([]).
add_players([N-M|T]) :-
    (   sidl_state:pl(N0), N0 == N
    ->  true
    ;   number(M)
    ->  assertz(sidl_state:pl(N)), assertz(sidl_state:acc(N, M))
    ;   rt_error("init/2: the account of ~k is ~k, not a number", [N, M])
    ),
    add_players(T).

add_fact(W) :-
    assertz(sidl_state:fw(W)),
    (   is_list(W), length(W, N), max_indexed_len(Max), N =< Max
    ->  G =.. [f|W], assertz(sidl_state:G)
    ;   true
    ).

del_fact(W) :-
    retract(sidl_state:fw(W)), !,
    (   is_list(W), length(W, N), max_indexed_len(Max), N =< Max
    ->  G =.. [f|W], retract(sidl_state:G)
    ;   true
    ).
del_fact(_).

players(Ps) :- nb_getval(gm_players, Ps).

rt_error(Fmt, Args) :-
    format(string(S), Fmt, Args),
    throw(error(sidl(S), _)).

                 /*******************************
                 *     SWITCHES IN A STATE      *
                 *******************************/

% legal_info(-Legal): Legal is a list of sw(I, Owner, Kind, Actions), legal order, where
% Owner is player(P), dist(D), other(O) or none, Kind is finite or unlimited and Actions
% are the distinct actions in solution order (or the templates of an unlimited switch).
legal_info(Legal) :-
    findall(I, sidl_game:legal(I), Is0),
    distinct_list(Is0, Is),
    players(Ps),
    maplist(switch_info(Ps), Is, Legal).

switch_info(Ps, I, sw(I, Owner, Kind, Acts)) :-
    (   sidl_game:owned(I, O)
    ->  owner_class(O, Ps, Owner)
    ;   Owner = none
    ),
    findall(T, sidl_game:unlimited(I, T), Ts),
    (   Ts \== []
    ->  Kind = unlimited, distinct_list(Ts, Acts)
    ;   Kind = finite,
        findall(A, sidl_game:switch(I, A), As),
        distinct_list(As, Acts)
    ).

owner_class(O, Ps, player(O)) :- member(P, Ps), P =@= O, !.
owner_class(O, _, dist(O)) :- nonvar(O), O = equal(_), !.
owner_class(O, _, dist(O)) :- is_list(O), O \== [], maplist(number, O), !.
owner_class(O, _, other(O)).

owner_term(player(O), O).
owner_term(dist(O), O).
owner_term(other(O), O).

distinct_list(L, S) :-
    (   ground(L) -> list_to_set(L, S) ; distinct_variants(L, [], S) ).

distinct_variants([], _, []).
distinct_variants([X|Xs], Seen, Out) :-
    (   member(Y, Seen), Y =@= X
    ->  Out = Out1
    ;   Out = [X|Out1]
    ),
    distinct_variants(Xs, [X|Seen], Out1).

% check_nature(+Legal): every legal nature switch can take an action: it is not unlimited, its
% distribution fits its actions, and it has actions to draw from (equal(0) with none is a
% valid owner that cannot draw).  Checked when a chronon runs, as the engine does.
check_nature(Legal) :-
    forall(member(sw(I, dist(D), Kind, Acts), Legal),
           (   Kind == unlimited
           ->  rt_error("chance switch ~k has unlimited actions", [I])
           ;   check_dist(I, D, Acts),
               (   Acts == []
               ->  rt_error("the chance switch ~k has no actions to draw from", [I])
               ;   true
               )
           )).

check_dist(I, equal(N), Acts) :- !,
    length(Acts, L),
    (   integer(N), N =:= L -> true
    ;   rt_error("owned/2: switch ~k is owned by equal(~k) but has ~d actions", [I, N, L])
    ).
check_dist(I, Ps, Acts) :-
    length(Acts, L), length(Ps, LP),
    (   LP =\= L
    ->  rt_error("owned/2: switch ~k has ~d actions but ~d probabilities", [I, L, LP])
    ;   member(P, Ps), P < 0
    ->  rt_error("owned/2: switch ~k has the negative probability ~k", [I, P])
    ;   sum_list(Ps, Sum), abs(Sum - 1) > 1.0e-9
    ->  rt_error("owned/2: the probabilities of switch ~k sum to ~k, not 1", [I, Sum])
    ;   true
    ).

                 /*******************************
                 *          SUBMISSIONS          *
                 *******************************/

% validate_submit(+Legal, +P, +I, +A, -Reason): Reason = ok or a text.
validate_submit(Legal, P, I, A, Reason) :-
    (   \+ ground(P-I-A)
    ->  Reason = "the submission is not ground"
    ;   \+ ( member(sw(I0, _, _, _), Legal), I0 == I )
    ->  format(string(Reason), "switch ~k is not legal", [I])
    ;   member(sw(I0, Owner, Kind, Acts), Legal), I0 == I
    ->  (   Owner \= player(_)
        ->  format(string(Reason), "switch ~k is not owned by a player", [I])
        ;   Owner = player(O), O \== P
        ->  format(string(Reason), "switch ~k is owned by ~k, not by ~k", [I, O, P])
        ;   action_ok(I, Kind, Acts, A, Reason)
        )
    ).

validate_nature(Legal, I, A, Reason) :-
    (   \+ ground(I-A)
    ->  Reason = "the nature line is not ground"
    ;   \+ ( member(sw(I0, _, _, _), Legal), I0 == I )
    ->  format(string(Reason), "switch ~k is not legal", [I])
    ;   member(sw(I0, Owner, Kind, Acts), Legal), I0 == I
    ->  (   Owner \= dist(_)
        ->  format(string(Reason), "switch ~k is not owned by a distribution", [I])
        ;   action_ok(I, Kind, Acts, A, Reason)
        )
    ).

action_ok(I, finite, Acts, A, Reason) :-
    (   memberchk(A, Acts) -> Reason = ok
    ;   format(string(Reason), "~k is not an action of switch ~k", [A, I])
    ).
action_ok(I, unlimited, Ts, A, Reason) :-
    (   \+ ( member(T, Ts), template_match(T, A, _) )
    ->  format(string(Reason), "~k matches no template of switch ~k", [A, I])
    ;   held_action(unlimited, Ts, A, A1),
        catch(( sidl_game:switch(I, A1) -> R0 = ok ; R0 = fails ), E, R0 = error(E)),
        (   R0 == ok
        ->  Reason = ok
        ;   R0 == fails
        ->  format(string(Reason), "switch(~k, ~k) fails", [I, A1])
        ;   R0 = error(E1), message_text(E1, M),
            format(string(Reason), "switch(~k, ~k) raised: ~w", [I, A1, M])
        )
    ).

% submitted_action(+Legal, +I, +A, -A1): the accepted action A as switch I holds it.
submitted_action(Legal, I, A, A1) :-
    once(( member(sw(I0, _, Kind, Acts), Legal), I0 == I )),
    held_action(Kind, Acts, A, A1).

% held_action(+Kind, +Acts, +A, -A1): the action as the switch holds it: for an unlimited
% switch the values of the first template it matches (an integer in a double slot is the
% equal float); a finite switch's action as submitted.
held_action(unlimited, Ts, A, A1) :- !,
    once(( member(T, Ts), template_match(T, A, A1) )).
held_action(_, _, A, A).

% A slot (Name, Type) stands for a value of Type; a variable in a template stands for
% any (ground) term, repeated variables for equal terms; everything else must be equal.
% A1 is A with each slot value as the slot holds it (docs/semantics.md §4.4).
template_match(T0, A, A1) :-
    copy_term(T0, T),
    tmatch(T, A, A1).

tmatch(T, A, A) :- var(T), !, T = A.
tmatch((Name, Type), A, V) :- atom(Name), slot_type(Type), !, slot_value(Type, A, V).
tmatch(T, A, A) :- atomic(T), !, T == A.
tmatch(T, A, A1) :-
    compound(A),
    compound_name_arity(T, N, Ar),
    compound_name_arity(A, N, Ar),
    T =.. [_|Ts], A =.. [_|As],
    maplist(tmatch, Ts, As, As1),
    A1 =.. [N|As1].

slot_type(double).
slot_type(integer).
slot_type(number).
slot_type(atom).
slot_type(term).

% slot_value(+Type, +V, -Held): a double takes a float, or an integer as the equal float
% (none beyond 2^53 that no float equals); an integer only an integer; a number either,
% as written; an atom an atom; a term any ground term.
slot_value(double, V, V) :- float(V).
slot_value(double, V, F) :- integer(V), F is float(V), integer(F) =:= V.
slot_value(integer, V, V) :- integer(V).
slot_value(number, V, V) :- number(V).
slot_value(atom, V, V) :- atom(V).
slot_value(term, V, V) :- ground(V).

                 /*******************************
                 *           CHRONON            *
                 *******************************/

% run_chronon(+K, +Legal, +Subs, +Nats): Subs are I-A pairs of accepted submissions,
% Nats I-A pairs of nature actions (every distribution switch must have one).
% On success the new state is in place; a runtime error leaves the state untouched.
run_chronon(K, Legal, Subs, Nats) :-
    % \+ \+: the new state is in the database; the bindings and the backtrackable
    % schedules of the chronon are dropped at once (keeps long runs flat)
    catch(( \+ \+ chronon_(K, Legal, Subs, Nats) -> true ; rt_error("the chronon failed", []) ),
          E, ( clear_does, throw(E) )),
    clear_does.

clear_does :-
    (   sidl_state:dz(_, _) -> retractall(sidl_state:dz(_, _)) ; true ).

chronon_(K, Legal, Subs, Nats) :-
    % 1. nature (checked even when the script fixes the action)
    check_nature(Legal),
    % does/2: submitted and drawn actions, in legal switch order
    forall(member(sw(I, Owner, _, _), Legal),
           (   Owner = dist(_) -> ( member(I0-A, Nats), I0 == I -> assertz(sidl_state:dz(I, A)) ; true )
           ;   member(I0-A, Subs), I0 == I -> assertz(sidl_state:dz(I, A))
           ;   true
           )),
    b_setval(gm_cr, []),
    b_setval(gm_de, []),
    % 2./3. actions of every legal switch, in order
    do_switches(Legal, K),
    % 4. payoffs
    players(Ps),
    maplist(payoff_sum, Ps, Pays),
    b_getval(gm_cr, CrR), reverse(CrR, Cr),
    b_getval(gm_de, DeR), reverse(DeR, De),
    % 6. apply: accounts, deletions, creations
    (   maplist(==([]), Pays)
    ->  true
    ;   maplist(new_account, Ps, Pays, PMs),
        set_accounts(PMs)
    ),
    maplist(del_fact, De),
    maplist(add_fact, Cr).

do_switches([], _).
do_switches([sw(I, _, Kind, Acts)|T], K) :-
    (   sidl_state:dz(I, A)
    ->  How = does
    ;   sidl_game:default(I, A)
    ->  How = default
    ;   Kind == finite, Acts = [A|_]
    ->  How = first
    ;   How = none
    ),
    (   How == none
    ->  verbose("chronon ~w: switch ~k has no action", [K, I])
    ;   sidl_game:do(A)
    ->  verbose("chronon ~w: switch ~k: do(~k) (~w)", [K, I, A, How])
    ;   verbose("chronon ~w: switch ~k: do(~k) failed, no effect (~w)", [K, I, A, How])
    ),
    do_switches(T, K).

payoff_sum(P, Xs) :-
    findall(X, sidl_game:payoff(P, X), Xs),
    forall(member(X, Xs),
           (   number(X) -> true
           ;   rt_error("payoff/2 gave ~k, not a number, for player ~k", [X, P]) )).

new_account(P, Xs, P-M) :-
    (   sidl_state:acc(P, M0) -> true ; M0 = 0 ),
    sum_onto(Xs, M0, M).

sum_onto([], M, M).
sum_onto([X|Xs], M0, M) :- M1 is M0 + X, sum_onto(Xs, M1, M).

set_accounts(PMs) :-
    retractall(sidl_state:acc(_, _)),
    forall(member(P-M, PMs), assertz(sidl_state:acc(P, M))).

verbose(Fmt, Args) :-
    (   nb_current(gm_verbose, true)
    ->  format(user_error, "gm: ", []), format(user_error, Fmt, Args), nl(user_error)
    ;   true
    ).

                 /*******************************
                 *       LIMITED EVALUATION      *
                 *******************************/

% guarded(:Goal): Goal under the optional inference limit (an exceeded limit is a
% runtime error, like the Rust engine's step budget).
guarded(Goal) :-
    (   nb_current(gm_inference_limit, Limit), integer(Limit)
    ->  call_with_inference_limit(Goal, Limit, R),
        (   R == inference_limit_exceeded
        ->  rt_error("step budget exhausted (~d inferences)", [Limit])
        ;   true
        )
    ;   call(Goal)
    ).

                 /*******************************
                 *          TRACE OUTPUT         *
                 *******************************/

canon(T, S) :- format(string(S), "~k", [T]).

% sort strings by Unicode code point
sort_texts(Ts, Sorted) :-
    maplist(text_key, Ts, Ps),
    msort(Ps, SPs),
    pairs_values(SPs, Sorted).

sort_keyed(Pairs, Sorted) :-          % Pairs = Text-Value, sorted by Text
    maplist(pair_key, Pairs, Ps),
    keysort(Ps, SPs),
    pairs_values(SPs, Sorted).

text_key(T, Cs-T) :- string_codes(T, Cs).
pair_key(T-V, Cs-(T-V)) :- string_codes(T, Cs).
canon_pair(W, T-W) :- canon(W, T).

json_string(S) :-
    string_codes(S, Cs),
    put_char('"'),
    maplist(json_char, Cs),
    put_char('"').

json_char(0'") :- !, write('\\"').
json_char(0'\\) :- !, write('\\\\').
json_char(C) :-
    (   ( C < 0x20 ; C >= 0x7f, C =< 0x9f )
    ->  format("\\u~|~`0t~16r~4+", [C])
    ;   put_char_code(C)
    ).

put_char_code(C) :- char_code(Ch, C), put_char(Ch).

json_strings([]).
json_strings([S|Ss]) :- json_string(S), ( Ss == [] -> true ; put_char(',') ), json_strings(Ss).

print_state(K, Legal) :-
    with_output_to(string(Line), state_line(K, Legal)),
    write(Line), nl.

state_line(K, Legal) :-
    findall(W, sidl_state:fw(W), Ws),
    maplist(canon_pair, Ws, FPairs),
    pairs_keys(FPairs, FTexts0),
    sort_texts(FTexts0, FTexts),
    format("{\"chronon\":~d,\"facts\":[", [K]),
    json_strings(FTexts),
    write("],\"accounts\":{"),
    findall(T-M, ( sidl_state:acc(P, M), canon(P, T) ), APairs0),
    sort_keyed(APairs0, APairs),
    write_accounts(APairs),
    write("},\"legal\":["),
    maplist(legal_item, Legal, LItems0),
    sort_keyed(LItems0, LItems),
    write_legal(LItems),
    write("],\"visible\":{"),
    players(Ps),
    findall(PT-Vis,
            ( member(P, Ps), canon(P, PT),
              findall(T, ( member(T-W, FPairs), \+ sidl_game:hidden(W, P) ), Vis0),
              sort_texts(Vis0, Vis) ),
            VPairs0),
    sort_keyed(VPairs0, VPairs),
    write_visible(VPairs),
    write("},\"terminal\":"),
    ( Legal == [] -> write(true) ; write(false) ),
    write("}").

write_accounts([]).
write_accounts([T-M|R]) :-
    json_string(T), put_char(':'), write_canonical(M),
    ( R == [] -> true ; put_char(',') ),
    write_accounts(R).

legal_item(sw(I, Owner, Kind, Acts), IT-item(IT, OwnerT, Kind, ATs)) :-
    canon(I, IT),
    (   Owner == none -> OwnerT = null ; owner_term(Owner, O), canon(O, OwnerT) ),
    maplist(canon, Acts, ATs0),
    sort_texts(ATs0, ATs).

write_legal([]).
write_legal([_-item(IT, OwnerT, Kind, ATs)|R]) :-
    write("{\"switch\":"), json_string(IT),
    write(",\"owner\":"),
    ( OwnerT == null -> write(null) ; json_string(OwnerT) ),
    ( Kind == finite -> write(",\"actions\":[") ; write(",\"unlimited\":[") ),
    json_strings(ATs),
    write("]}"),
    ( R == [] -> true ; put_char(',') ),
    write_legal(R).

write_visible([]).
write_visible([PT-Vis|R]) :-
    json_string(PT), write(":["), json_strings(Vis), write("]"),
    ( R == [] -> true ; put_char(',') ),
    write_visible(R).

print_error(K, E) :-
    message_text(E, Msg),
    with_output_to(string(Line),
                   ( format("{\"chronon\":~d,\"error\":", [K]), json_string(Msg), write("}") )),
    write(Line), nl.

message_text(error(sidl(S), _), S) :- !.
message_text(E, S) :-
    (   catch('$messages':translate_message(E, Lines, []), _, fail)
    ->  true
    ;   Lines = ['~q'-[E]]
    ),
    catch(with_output_to(string(S0), print_message_lines(current_output, '', Lines)), _,
          format(string(S0), "~q", [E])),
    split_string(S0, "\n", " \t", Parts0),
    exclude(==(""), Parts0, Parts),
    atomic_list_concat(Parts, ' ', A0),
    atomic_list_concat(Pieces, 'sidl_game:', A0),      % the game's module is an artefact
    atomic_list_concat(Pieces, '', A),
    atom_string(A, S).

                 /*******************************
                 *            SCRIPTS           *
                 *******************************/

read_script(File, Items) :-
    catch(open(File, read, S), E, ( message_text(E, M), format(user_error, "gm: ~w~n", [M]), gm_exit(1) )),
    read_items(S, File, file, Items),
    close(S).

% read_items(+Stream, +File, +Where, -Items): Items are Item-Line, Line being the line of
% File; Where is `file` when Stream reads File, or batch(First) when it reads a script of a
% batch file from a string, First being the line of File where the string starts.
read_items(S, File, Where, Items) :-
    catch(read_term(S, T, [module(sidl_game), term_position(P)]), E, true),
    (   nonvar(E)
    ->  (   Where == file
        ->  message_text(E, M)
        ;   Where = batch(First), E = error(syntax_error(What), stream(_, L0, LinePos, _))
        ->  L is L0 + First - 1, Col is LinePos + 1,
            format(string(M), "line ~w, column ~w: syntax error: ~w", [L, Col, What])
        ;   message_text(E, M)
        ),
        format(user_error, "gm: ~w: bad script: ~w~n", [File, M]), gm_exit(1)
    ;   T == end_of_file
    ->  Items = []
    ;   stream_position_data(line_count, P, L0),
        ( Where = batch(First) -> Line is L0 + First - 1 ; Line = L0 ),
        (   script_item(T)
        ->  Items = [T-Line|Rest], read_items(S, File, Where, Rest)
        ;   format(user_error, "gm: ~w:~w: not a script item: ~q~n", [File, Line, T]), gm_exit(1)
        )
    ).

% ---- batch files: scripts separated by header lines "%%% script NAME [--max-chronons N]"
% read_batch(+File, +DefaultMax, -Scripts): Scripts are script(Name, Max, Items); nothing
% but comments may precede the first header.
read_batch(File, DefMax, Scripts) :-
    catch(read_file_to_string(File, Text, []), E,
          ( message_text(E, M), format(user_error, "gm: ~w~n", [M]), gm_exit(1) )),
    split_string(Text, "\n", "", Lines),
    batch_segments(Lines, 1, File, none, [], Segs),
    foldl(batch_script(File, DefMax), Segs, Scripts0, []),
    exclude(==(none), Scripts0, Scripts).

% batch_segments(+Lines, +LineNo, +File, +Header, +BodyRev, -Segs): Segs are
% seg(Header, FirstBodyLine, Body); Header is none for the text before the first header.
batch_segments([], N, _, H, Rev, [seg(H, First, Body)]) :-
    segment_body(N, Rev, First, Body).
batch_segments([L|Ls], N, File, H, Rev, Segs) :-
    N1 is N + 1,
    (   string_concat("%%% script", Rest, L),
        ( Rest == "" ; sub_string(Rest, 0, 1, _, C), memberchk(C, [" ", "\t"]) )
    ->  segment_body(N, Rev, First, Body),
        Segs = [seg(H, First, Body)|Segs1],
        batch_header(Rest, File, N, H1),
        batch_segments(Ls, N1, File, H1, [], Segs1)
    ;   batch_segments(Ls, N1, File, H, [L|Rev], Segs)
    ).

segment_body(N, Rev, First, Body) :-
    length(Rev, Len),
    First is N - Len,
    reverse(Rev, Ls),
    atomic_list_concat(Ls, '\n', Body).

batch_header(Rest, File, N, header(Name, Opts)) :-
    split_string(Rest, " \t", " \t\r", Ws0),
    exclude(==(""), Ws0, Ws),
    (   Ws = [Name]
    ->  Opts = []
    ;   Ws = [Name, "--max-chronons", NS], number_string(M, NS), integer(M), M >= 0
    ->  Opts = [max(M)]
    ;   format(user_error, "gm: ~w:~w: bad header (%%% script NAME [--max-chronons N])~n", [File, N]),
        gm_exit(1)
    ).

batch_script(File, DefMax, seg(H, First, Body), [Script|T], T) :-
    setup_call_cleanup(open_string(Body, S), read_items(S, File, batch(First), Items), close(S)),
    (   H == none
    ->  (   Items == [] -> Script = none
        ;   format(user_error, "gm: ~w: script lines before the first %%% script header~n", [File]),
            gm_exit(1)
        )
    ;   H = header(Name, Opts),
        ( memberchk(max(Max), Opts) -> true ; Max = DefMax ),
        Script = script(Name, Max, Items)
    ).

script_item(submit(_, _, _)).
script_item(nature(_, _)).
script_item(chronon).

                 /*******************************
                 *             MODES            *
                 *******************************/

% the state after initialisation, or print the error line and exit 2
start_game(Legal) :-
    catch(once(guarded(( init_game, legal_info(Legal) ))), E, ( print_error(0, E), gm_exit(2) )).

next_legal(K, Legal) :-
    catch(once(guarded(legal_info(Legal))), E, ( print_error(K, E), gm_exit(2) )).

% ---- script-driven trace
run_script(Items, Max) :-
    start_game(Legal),
    print_state(0, Legal),
    (   Legal == [] -> true
    ;   Max =< 0 -> true
    ;   script_loop(Items, 0, Max, Legal, [], [])
    ).

script_loop([], _, _, _, _, _).
script_loop([Item-Line|Items], K, Max, Legal, Subs, Nats) :-
    K1 is K + 1,
    (   Item = submit(P, I, A)
    ->  validate_submit(Legal, P, I, A, R),
        (   R == ok
        ->  submitted_action(Legal, I, A, A1),
            replace_pair(I, A1, Subs, Subs1), script_loop(Items, K, Max, Legal, Subs1, Nats)
        ;   format(user_error, "gm: line ~w: rejected ~k before chronon ~d: ~w~n",
                   [Line, submit(P, I, A), K1, R]),
            script_loop(Items, K, Max, Legal, Subs, Nats)
        )
    ;   Item = nature(I, A)
    ->  validate_nature(Legal, I, A, R),
        (   R == ok
        ->  replace_pair(I, A, Nats, Nats1), script_loop(Items, K, Max, Legal, Subs, Nats1)
        ;   format(user_error, "gm: line ~w: rejected ~k before chronon ~d: ~w~n",
                   [Line, nature(I, A), K1, R]),
            script_loop(Items, K, Max, Legal, Subs, Nats)
        )
    ;   % chronon.  A nature switch that cannot act is a runtime error of this chronon, not a
        % missing nature line.
        catch(check_nature(Legal), E0, ( print_error(K1, E0), gm_exit(2) )),
        forall(( member(sw(I, dist(_), Kind, Acts), Legal),
                 \+ ( Kind == finite, ( Acts == [] ; Acts = [_] ) ),
                 \+ ( member(I0-_, Nats), I0 == I ) ),
               ( format(user_error, "gm: line ~w: chronon ~d: the nature switch ~k has no nature/2 line (the reference manager needs one for every nature switch with more than one action)~n", [Line, K1, I]),
                 gm_exit(3) )),
        findall(I-A, ( member(sw(I, dist(_), finite, [A]), Legal),
                       \+ ( member(I0-_, Nats), I0 == I ) ), Forced),
        append(Nats, Forced, Nats1),
        catch(once(guarded(run_chronon(K1, Legal, Subs, Nats1))), E, ( print_error(K1, E), gm_exit(2) )),
        next_legal(K1, Legal1),
        print_state(K1, Legal1),
        (   Legal1 == [] -> true
        ;   K1 >= Max -> true
        ;   script_loop(Items, K1, Max, Legal1, [], [])
        )
    ).

replace_pair(I, A, Ps0, Ps) :-
    exclude(key_is(I), Ps0, Ps1),
    append(Ps1, [I-A], Ps).

key_is(I, I0-_) :- I0 == I.

% ---- batch: every script from a fresh state; "%%% script NAME" before its lines; a runtime
% error (status 2, the error line is printed) ends only that script, a missing nature line
% (status 3) prints "%%% nature-missing" and ends it too.
run_batch(Scripts, Seed) :-
    forall(member(script(Name, Max, Items), Scripts),
           (   format("%%% script ~w~n", [Name]),
               reset_run(Seed),
               catch(run_script(Items, Max), gm_exit(Status), batch_status(Status))
           )).

batch_status(2) :- !.
batch_status(3) :- !, format("%%% nature-missing~n", []).
batch_status(Status) :- gm_exit(Status).

% ---- random decisions (SWI's RNG): nature draws by distribution, one uniformly random
% action for every player-owned finite switch; unlimited switches get none.
random_decisions(Legal, Subs, Nats, Out) :-
    check_nature(Legal),
    foldl(random_decision, Legal, [], RevOut),
    reverse(RevOut, Out),
    findall(I-A, member(submit(_, I, A), Out), Subs),
    findall(I-A, ( member(N, Out), ( N = nature(I, A) ; N = forced(I, A) ) ), Nats).

random_decision(sw(I, Owner, Kind, Acts), O0, O) :-
    (   Owner = dist(_), Kind == finite, Acts = [A]
    ->  O = [forced(I, A)|O0]          % a single action: no draw, no script line
    ;   Owner = dist(D), Kind == finite, Acts \== []
    ->  draw(D, Acts, A),
        O = [nature(I, A)|O0]
    ;   Owner = player(P), Kind == finite, Acts \== []
    ->  random_member(A, Acts),
        O = [submit(P, I, A)|O0]
    ;   O = O0
    ).

draw(equal(_), Acts, A) :- !, random_member(A, Acts).
draw(Ps, Acts, A) :-
    random(U),
    pick(Ps, Acts, U, A).

pick([_], [A], _, A) :- !.
pick([P|Ps], [A0|As], U, A) :-
    (   U < P -> A = A0 ; U1 is U - P, pick(Ps, As, U1, A) ).

% ---- random trace (no script) and random script
run_random(Max, Mode) :-
    start_game(Legal),
    (   Mode == trace -> print_state(0, Legal) ; true ),
    random_loop(0, Max, Legal, Mode).

random_loop(K, Max, Legal, Mode) :-
    (   Legal == [] -> true
    ;   K >= Max -> true
    ;   K1 is K + 1,
        catch(once(guarded(( random_decisions(Legal, Subs, Nats, Out),
                             run_chronon(K1, Legal, Subs, Nats) ))),
              E, ( Mode == trace -> print_error(K1, E), gm_exit(2)
                 ; message_text(E, M), format(user_error, "gm: chronon ~d: runtime error: ~w~n", [K1, M]), gm_exit(2) )),
        (   Mode == script
        ->  forall(( member(T, Out), T \= forced(_, _) ), ( write_canonical(T), write('.'), nl )),
            write('chronon.'), nl
        ;   true
        ),
        next_legal(K1, Legal1),
        (   Mode == trace -> print_state(K1, Legal1) ; true ),
        random_loop(K1, Max, Legal1, Mode)
    ).

% ---- bench: random games back to back until N chronons have run
% time = CPU time of the process (all threads), so that a loaded machine does not distort it
run_bench(N) :-
    statistics(process_cputime, T0),
    catch(bench_games(N), E, ( message_text(E, M), format(user_error, "gm: runtime error: ~w~n", [M]), gm_exit(2) )),
    statistics(process_cputime, T1),
    Secs is T1 - T0,
    ( Secs > 0 -> Rate is N / Secs ; Rate = inf ),
    format("chronons=~d seconds=~4f chronons_per_sec=~1f~n", [N, Secs, Rate]).

bench_games(N) :-
    guarded(( init_game, legal_info(Legal) )),
    bench_loop(N, Legal).

bench_loop(N, Legal) :-
    (   N =< 0 -> true
    ;   Legal == []
    ->  guarded(( init_game, legal_info(Legal1) )),
        (   Legal1 == [] -> rt_error("the initial state is terminal", []) ; true ),
        bench_loop(N, Legal1)
    ;   once(guarded(( random_decisions(Legal, Subs, Nats, _),
                       run_chronon(N, Legal, Subs, Nats),
                       legal_info(Legal1) ))),
        N1 is N - 1,
        bench_loop(N1, Legal1)
    ).

                 /*******************************
                 *              MAIN            *
                 *******************************/

% gm_exit(+Status): end the run with exit status Status (1, 2 or 3; see the header).  Caught
% by main/0, which halts, and for 2 and 3 by the batch loop, which goes on.
gm_exit(Status) :- throw(gm_exit(Status)).

finish(Status) :-
    flush_output(user_output),
    flush_output(user_error),
    halt(Status).

usage :-
    format(user_error, "usage: swipl gm.pl GAME.sidl [SCRIPT | --script SCRIPT] [--max-chronons N] [--seed S]~n       swipl gm.pl GAME.sidl --random-script N [--seed S]~n       swipl gm.pl GAME.sidl --bench N [--seed S]~n       swipl gm.pl GAME.sidl --batch FILE [--max-chronons N] [--seed S]~n       options: --verbose, --inference-limit N~n", []),
    gm_exit(1).

parse_args([], Opts, Opts).
parse_args(['--max-chronons', N|T], O0, O) :- !, num_arg(N, V), parse_args(T, [max(V)|O0], O).
parse_args(['--seed', N|T], O0, O) :- !, num_arg(N, V), parse_args(T, [seed(V)|O0], O).
parse_args(['--script', F|T], O0, O) :- !, parse_args(T, [script(F)|O0], O).
parse_args(['--random-script', N|T], O0, O) :- !, num_arg(N, V), parse_args(T, [random_script(V)|O0], O).
parse_args(['--bench', N|T], O0, O) :- !, num_arg(N, V), parse_args(T, [bench(V)|O0], O).
parse_args(['--batch', F|T], O0, O) :- !, parse_args(T, [batch(F)|O0], O).
parse_args(['--inference-limit', N|T], O0, O) :- !, num_arg(N, V), parse_args(T, [inference_limit(V)|O0], O).
parse_args(['--verbose'|T], O0, O) :- !, parse_args(T, [verbose|O0], O).
parse_args([A|_], _, _) :- sub_atom(A, 0, _, _, '--'), !,
    format(user_error, "gm: unknown option ~w~n", [A]), usage.
parse_args([A|T], O0, O) :-
    (   memberchk(game(_), O0) -> ( memberchk(script(_), O0) -> usage ; parse_args(T, [script(A)|O0], O) )
    ;   parse_args(T, [game(A)|O0], O)
    ).

num_arg(A, V) :-
    (   atom_number(A, V), integer(V), V >= 0 -> true
    ;   format(user_error, "gm: ~w is not a non-negative integer~n", [A]), usage
    ).

main :-
    catch(( main_, Status = 0 ), gm_exit(Status), true),
    finish(Status).

main_ :-
    current_prolog_flag(argv, Argv),
    parse_args(Argv, [], Opts),
    (   memberchk(game(Game), Opts) -> true ; usage ),
    (   memberchk(verbose, Opts) -> nb_setval(gm_verbose, true) ; nb_setval(gm_verbose, false) ),
    (   memberchk(inference_limit(L), Opts) -> nb_setval(gm_inference_limit, L) ; nb_setval(gm_inference_limit, none) ),
    (   memberchk(seed(Seed), Opts) -> true ; Seed = 0 ),
    (   memberchk(max(Max), Opts) -> true ; Max = 1000 ),
    set_random(seed(Seed)),
    set_stream(user_output, buffer(full)),
    load_game(Game),
    (   memberchk(bench(N), Opts)
    ->  run_bench(N)
    ;   memberchk(random_script(N), Opts)
    ->  format("% random script: ~w, seed ~w, at most ~w chronons (gm.pl, SWI-Prolog RNG)~n",
               [Game, Seed, N]),
        run_random(N, script)
    ;   memberchk(batch(File), Opts)
    ->  read_batch(File, Max, Scripts),
        run_batch(Scripts, Seed)
    ;   memberchk(script(Script), Opts)
    ->  read_script(Script, Items),
        run_script(Items, Max)
    ;   run_random(Max, trace)
    ).

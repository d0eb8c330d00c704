% Per-state tabling modes (engine/src/solve/statememo.rs). fact/1 is the state host predicate,
% does/2 and tocreate/1 context host predicates (they read the schedules and actions), create/1 a
% host predicate with an effect. `% expect Name/Arity Bits`: 1 = every argument may be generalised,
% 2 = all but the first, 3 = both, 0 = never tabled per state; + 4 = tabled per context (it reads a
% context host predicate).

% a scan of the state, then table lookups: both modes
% expect scan/3 3
scan(C, X, Y) :- fact([C, X, Y0]), next(Y0, Y).
next(1, 2).
next(2, 3).

% negation on a variable the general call leaves free but a specific call binds: never
% expect free_not/2 0
free_not(C, X) :- fact([C, _]), not(fact([X, C])).

% negation on variables ground in the general mode, and on a clause-local one: both modes
% expect ground_not/2 3
ground_not(C, X) :- fact([C, X]), not(fact([X, _])).

% if-then-else whose condition sees the second argument: with the first argument kept, the
% second is still free, so never
% expect cond/2 0
cond(C, X) :- fact([C, _]), ( X = a -> true ; true ).

% a cut after a state goal that sees a generalised head variable: never
% expect cut/2 0
cut(C, X) :- fact([C, X]), !.

% a cut after goals that see only the kept first argument: only with the first kept
% expect cutfirst/2 2
cutfirst(C, X) :- fact([C]), !, fact([C, X]).

% type test on the first argument: only with the first argument kept (then it is ground)
% expect typed/1 2
typed(X) :- fact([_]), var(X).

% reaches a context host predicate (does/2): tabled per context, both modes
% expect moved/2 7
moved(C, X) :- fact([C, X]), does(C, X).

% recursive: never (its callers may be)
% expect walk/2 0
walk(X, X).
walk(X, Y) :- fact([X, Z]), walk(Z, Y).
% expect reach/2 3
reach(X, Y) :- fact([start, X]), walk(X, Y).

% arithmetic: a free variable throws in the general mode (the machine then runs the call
% directly), so the analysis admits it
% expect plus/2 3
plus(X, Y) :- fact([n, X]), Y is X + 1.

% pure predicates are memoized by argument instead (state_memo 0)
% expect pure/1 0
pure(a).

% --- schedules and effects ---

% reads the schedules only: per context
% expect scheduled/2 7
scheduled(C, X) :- tocreate([C, X]).

% an effect (create/1): never, and neither are its callers
% expect effect/1 0
effect(X) :- fact([X]), create([X]).
% expect effectcaller/1 0
effectcaller(X) :- effect(X).

% negation of a schedule read on the argument: only with it kept (then it is ground)
% expect notscheduled/1 6
notscheduled(X) :- not(tocreate([X, _])), tocreate([_, X]).

% --- arity 0: one mode, the call itself ---

% expect anyfact/0 1
anyfact :- fact([_]).
% expect anynew/0 5
anynew :- tocreate(_).
% expect anyeffect/0 0
anyeffect :- create([a]).

% --- variables not seen yet are free in both modes ---

% between/3 binds a fresh variable; the negation then sees ground terms only
% expect fresh/1 3
fresh(X) :- fact([X]), between(1, 3, I), not(fact([X, I])).

% Z is bound to the generalised Y by =/2 before the negation sees it: never
% expect seen/2 0
seen(X, Y) :- fact([X]), Y = Z, not(fact([X, Z])).

% --- meta-calls of a callable given by the caller (engine/src/solve/specialise.rs) ---

% the generic predicate itself calls an unknown goal: never
% expect lineon/2 0
lineon(B, M) :- between(1, 3, I), call(B, I, M), not(M = blank), call(B, I, M).
cellat(I, M) :- fact([cell, I, M]).
newat(I, M) :- tocreate([cell, I, M]).

% a call with an atom in the meta position runs a copy with direct calls: tabled per state
% expect line/1 3
line(M) :- lineon(cellat, M).
% ... or per context when the goal reads the schedules
% expect newline/1 7
newline(M) :- lineon(newat, M).

% the goal given as a variable stays unknown: never
% expect dynline/2 0
dynline(B, M) :- lineon(B, M).

% a meta position also used as data is not specialised: never
% expect both/2 0
both(B, M) :- call(B, 1, M), M = B.
% expect bothcell/1 0
bothcell(M) :- both(cellat, M).

% a compound goal (once/1 of the library): the copy's head binds the goal's arguments. The cut
% after the goal commits the same way in both modes only when the whole goal is ground in the
% general mode: with M free, once(cellat(1, M)) keeps the first cell of row 1 and filtering it by
% M = b differs from once(cellat(1, b)), so never
% expect firstcell/2 0
firstcell(I, M) :- once(cellat(I, M)).
% ... and with the first argument kept the goal is ground
% expect hasa/1 2
hasa(I) :- once(cellat(I, a)).

% a goal that is a control construct or a built-in is left to call/N: never
% expect ctrl/1 0
ctrl(M) :- lineon(',', M).

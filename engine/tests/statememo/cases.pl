% Per-state tabling modes (engine/src/solve/statememo.rs). fact/1 is the state host predicate,
% does/2 another host predicate. `% expect Name/Arity Bits`: 1 = every argument may be generalised,
% 2 = all but the first, 3 = both, 0 = never tabled per state.

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

% reaches another host predicate (does/2): never
% expect moved/2 0
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

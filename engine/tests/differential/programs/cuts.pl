% Predicates with cuts in different positions.
n(1).
n(2).
n(3).

first_n(X) :- n(X), !.
last_clause_cut(X) :- n(X).
last_clause_cut(4) :- !.
last_clause_cut(5).

% Cut after a test: a deterministic max.
max_of(X, Y, X) :- X >= Y, !.
max_of(_, Y, Y).

% A "red" cut: wrong for max_of2(3, 1, 1).
max_of2(X, Y, Z) :- X >= Y, !, Z = X.
max_of2(_, Y, Y).

% The cut commits to the first clause that gets past it.
classify(X, negative) :- X < 0, !.
classify(0, zero) :- !.
classify(X, small) :- X < 10, !.
classify(_, large).

% A cut inside a disjunction cuts the whole clause.
disj_cut(X) :- ( X = 1, ! ; X = 2 ).
disj_cut(3).

% A cut in the condition of if-then-else is local to the condition.
ite_cut(X) :- ( n(X), ! -> true ; true ).
ite_cut(9).

% A cut inside call/1 is local to the call.
call_cut(X) :- call((n(X), !)).
call_cut(8).

% A cut inside \+ is local.
neg_cut(X) :- \+ (n(X), !, fail).

% A cut inside findall/3 is local.
findall_cut(L) :- findall(X, (n(X), !), L).

% The cut in the then-branch cuts the clause.
then_cut(X, Y) :- ( n(X) -> n(Y), ! ; Y = none ).
then_cut(_, last).

% A cut after a recursive call.
det_member(X, [X|_]) :- !.
det_member(X, [_|T]) :- det_member(X, T).

% A cut through a meta-call of a variable goal is local (G = !).
var_cut(X) :- G = !, n(X), call(G).
var_cut(7).

% A cut inside catch/3 is local to the catch.
catch_cut(X) :- catch((n(X), !), _, true).
catch_cut(6).

% Cut in the middle of a conjunction with backtracking before it.
mid_cut(X, Y) :- n(X), X >= 2, !, n(Y).
mid_cut(0, 0).

% Cut in a nested predicate does not affect the caller.
inner(X) :- n(X), !.
outer(X, Y) :- n(X), inner(Y).

% Cut with a disjunction after it.
cut_then_or(X) :- !, ( X = a ; X = b ).
cut_then_or(c).

% not/1 and \+ through predicates.
not_n(X) :- \+ n(X).

% Soft cut.
soft(X, Y) :- ( n(X) *-> Y = yes ; Y = no ).
soft_none(Y) :- ( fail *-> Y = yes ; Y = no ).

% once/1 and ignore/1.
once_n(X) :- once(n(X)).
ignore_fail :- ignore(fail).

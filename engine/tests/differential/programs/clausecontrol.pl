% Control constructs in clause bodies (compiled into their clauses, not meta-called): the cut in
% each branch, nested if-then-else, negation, soft cut, exceptions in the condition.
n(1).
n(2).
n(3).

% A cut in the then-branch cuts the clause; the condition's choicepoints are gone.
then_cut(X, Y) :- ( n(X), X >= 2 -> n(Y), ! ; Y = none ).
then_cut(0, last).

% A cut in the else-branch cuts the clause.
else_cut(X, Y) :- ( X > 5 -> Y = big ; n(Y), ! ).
else_cut(_, last).

% A cut in the condition is local to the condition.
cond_cut(X) :- ( n(X), ! -> true ; X = none ).
cond_cut(9).

% Nested if-then-else in the condition, the then- and the else-branch.
nested(X, R) :-
    (   ( X > 2 -> X < 10 ; X =:= 0 )
    ->  ( X > 5 -> R = high ; R = mid )
    ;   ( X < 0 -> R = neg ; X =:= 1 -> R = one ; R = other )
    ).

% A disjunction: every branch, in order; a cut in the left branch.
either(X) :- ( n(X) ; X = 4 ; X = 5 ).
either_cut(X) :- ( n(X), X >= 2, ! ; X = 7 ).
either_cut(8).

% `|` as a disjunction.
bar(X) :- ( X = a | X = b ).

% Negation of a goal that binds: the bindings are undone.
neg_binds(X, Y) :- \+ X = 1, Y = X.
neg_binds2(X) :- \+ \+ X = 1, var(X).
not_member(X, L) :- not(member(X, L)).
neg_cut(X) :- n(X), \+ (n(Y), Y > X, !, fail).

% An if-then without else; a soft cut.
if_then(X, Y) :- ( n(X), X > 1 -> Y = X ).
soft(X, Y) :- ( n(X), X > 1 *-> Y = X ; Y = none ).
soft_none(Y) :- ( n(X), X > 5 *-> Y = X ; Y = none ).

% Exceptions inside the condition, the branches and a negation, caught outside.
cond_throws(R) :- catch(( X is foo + 1 -> R = X ; R = no ), error(E, _), R = caught(E)).
then_throws(R) :- catch(( true -> throw(ball) ; R = no ), B, R = caught(B)).
neg_throws(R) :- catch(( \+ atom_length(_, _) -> R = yes ; R = no ), error(E, _), R = caught(E)).
undefined_in_cond(R) :- catch(( no_such_pred(1) -> R = yes ; R = no ), error(E, _), R = caught(E)).

% A variable goal in a branch, called with a plain goal.
var_branch(G, X) :- ( G -> X = yes ; X = no ).
var_right(G, X) :- ( fail ; G ), X = done.

% Arithmetic in the branches, a recursive predicate with if-then-else.
count_down(N, L) :- ( N =< 0 -> L = [] ; M is N - 1, L = [N|T], count_down(M, T) ).
sign(X, S) :- ( X > 0 -> S = 1 ; X < 0 -> S = -1 ; S = 0 ).

% A conjunction of several goals in every part.
conj_parts(X, Y, Z) :-
    ( n(X), X > 1, X < 3 -> Y = X, Z = then ; n(Y), Y > 2, Z = else ).

% Backtracking into the then-branch and into the else-branch.
then_alts(X, Y) :- ( n(X) -> n(Y) ; Y = none ).
else_alts(Y) :- ( n(9) -> Y = none ; n(Y) ).

% A variable in the place of a goal inside a control construct is call(G) (ISO 7.6.2): the cut it
% is bound to later cuts only itself, and a variable left of `;` makes a disjunction even when it
% is bound to an if-then-else.
var_cut_disj(X) :- n(X), G = !, ( G ; true ).
var_cut_ite(X) :- n(X), G = !, ( true -> G ; true ).
var_cut_conj(X) :- n(X), G = !, ( true, G ), true.
var_left(X) :- G = (fail -> true), ( G ; X = else ).

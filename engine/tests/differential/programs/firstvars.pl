% Head variables by first occurrence: a variable first met at a head argument (or inside a head
% list/compound) takes the call's argument without a fresh cell; later occurrences unify. Cases:
% repeated variables (at top level and nested, in either order), variables first seen in the
% head then used in the body, void variables, first occurrences inside a compound that is built
% (call argument unbound) or matched (bound), deep lists, and variables shared across arguments.

rep(X, X).
rep3(X, Y, X, Y).
nest_first(f(X, g(X)), X).
nest_later(X, f(X, g(X))).
list_rep([X, Y, X | T], Y, T).
body_use(X, Y, Z) :- Z is X + Y.
body_bind(X, Y) :- Y = X.
void(_, _, a).
void(_, x, b).
void(V, _, c) :- V == z.
mixed([A, _, B], f(_, A), B).
mixed([_ | T], g(T), t).
deeplist([[A, [B, [C, [D]]]] | _], A, B, C, D).
build([X, Y, X], X, Y).
build2(f([X | T], g(Y, X)), T, Y).
twice(X, [X | L], L).
chain(X, X, X, X).
later_first([X], X, Y) :- Y = X.
cut_first(X, Y) :- X = a, !, Y = 1.
cut_first(X, 2) :- X \== c.
throw_first(X, Y) :- Y is X * 2.
share(p(A, B), q(B, A), A-B).
alias(X, Y, X, Y).

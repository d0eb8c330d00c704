% A small directed graph with a cycle (c -> a) and a dead end (e).
edge(a, b).
edge(a, c).
edge(b, d).
edge(c, d).
edge(c, a).
edge(d, e).
edge(f, g).

% path/3 avoids cycles with a visited list.
path(X, Y, P) :- path(X, Y, [X], Q), reverse_(Q, [], P).
path(X, X, V, V).
path(X, Y, V, P) :- edge(X, Z), \+ memberchk_(Z, V), path(Z, Y, [Z|V], P).

memberchk_(X, [Y|T]) :- ( X == Y -> true ; memberchk_(X, T) ).
reverse_([], A, A).
reverse_([H|T], A, R) :- reverse_(T, [H|A], R).

reachable(X, Y) :- path(X, Y, _).
node(N) :- edge(N, _) ; edge(_, N).

% Weighted edges and the cheapest path by exhaustive search.
wedge(s, a, 4).
wedge(s, b, 1).
wedge(b, a, 2).
wedge(a, t, 1).
wedge(b, t, 5).
wpath(X, X, _, [X], 0).
wpath(X, Y, V, [X|P], C) :- wedge(X, Z, C1), \+ memberchk_(Z, V), wpath(Z, Y, [Z|V], P, C2), C is C1 + C2.
cheapest(X, Y, P, C) :- findall(C0-P0, wpath(X, Y, [X], P0, C0), L), keysort(L, [C-P|_]).

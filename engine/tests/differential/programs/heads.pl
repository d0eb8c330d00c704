% Clause heads with list patterns (walked along the spine by the engine), predicates without
% first-argument keys, and multi-goal bodies whose continuation frame is reused or kept by a
% choicepoint.

% list heads: fixed length, partial, nested, constants (atoms, numbers, floats, strings, [])
pair([X, Y], X, Y).
line(_, X, _, [DX, _], []) :- X > 5, DX > 0.
line(_, _, Y, [_, DY], []) :- Y > 5, DY > 0.
line(C, X, Y, [DX, DY], [[X1, Y1]]) :- X1 is X + DX, Y1 is Y + DY, C \== none.
line(C, X, Y, [DX, DY], [[X1, Y1] | Rest]) :-
    X1 is X + DX, Y1 is Y + DY, X1 < 8, line(C, X1, Y1, [DX, DY], Rest).
shape([a, 1, 2.5, "s", [] | T], T).
shape([[A, B], [B, A]], A).
shape([f(X), g(X, Y) | _], Y).
same([X, X]).
tail3([_, _, _ | T], T).
deep([[[X]]], X).

% no first-argument keys: every clause a candidate for every call
any(_, one).
any(X, two) :- X \== b.
any(_, three).

% multi-goal bodies: the continuation frame with choicepoints left inside it, and cut
walk(X, Y, Z) :- member(X, [1, 2, 3]), member(Y, [a, b]), Z = X-Y.
walk_cut(X, Y) :- member(X, [1, 2, 3]), X > 1, !, member(Y, [a, b]).
seq(L) :- pair(L, A, B), A < B, shape(S, A), same([S, S]).

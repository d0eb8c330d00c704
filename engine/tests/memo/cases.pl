% Argument-keyed memo tables (engine/src/solve/machine.rs, `call_memo` / `serve_memo`), run by
% engine/tests/it/memo.rs. Every `% query G` line must succeed exactly once, with memoization on and
% off; every `% fewer G` line must also run fewer inference steps with memoization on (its calls
% are answered from the table).

mem(X, [X|_]).
mem(X, [_|T]) :- mem(X, T).

% arithmetic on an unbound argument throws: that call is run directly, the other keys stay tabled
succ1(Y, Y1) :- Y1 is Y + 1.
try_succ(X, R) :- catch(succ1(X, R), error(E, _), R = err(E)).
% query findall(R, (mem(X, [1, _, 2, _, 1]), try_succ(X, R)), L), L == [2, err(instantiation_error), 3, err(instantiation_error), 2]
% fewer findall(R, (mem(X, [_, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]), try_succ(X, R)), L), L = [err(instantiation_error)|_]

% ground answers with compound arguments, unified in place or copied where a variable takes them
gen(a, [1, 2]).
gen(b, g(c)).
gen(c, 3.0).
p(X, Y) :- gen(X, Y).
% query findall(Y, p(a, Y), L), L == [[1, 2]]
% query p(X, g(Z)), X == b, Z == c
% query findall(X-Y, p(X, Y), L), L == [a-[1, 2], b-g(c), c-3.0]
% query p(a, [1, Q]), Q == 2
% query \+ p(a, [2|_])
% query \+ p(c, 3)
% query p(c, F), F == 3.0
% query findall(X, (mem(K, [a, b, a, b]), p(K, X)), L), L == [[1, 2], g(c), [1, 2], g(c)]

% answers with variables: fresh per answer, shared where the answer shares them
q(X, Y) :- X = f(Z), Y = g(Z).
q(h(W), W).
% query findall(A-B, q(A, B), [P1, P2]), P1 = f(1)-B1, B1 == g(1), P2 = h(V)-V2, V == V2
% query q(f(1), B), B == g(1)
% query q(A, g(2)), A == f(2)
% query findall(A, (q(A, _), q(A, _)), L), L = [f(_), h(_)]
% query q(A, B), q(C, D), A = f(1), C = f(2), B == g(1), D == g(2)

% answers tried in order, the bindings of an answer that does not unify undone
r(1, a, x).
r(2, b, y).
r(3, c, x).
rr(N, L, K) :- r(N, L, K).
% query findall(N, rr(N, _, x), L), L == [1, 3]
% query findall(N-L, (rr(N, L, K), K == y), R), R == [2-b]
% query rr(N, c, K), N == 3, K == x

% flat keys: one atomic answer binds the call's variables directly (a variable given twice, bound
% positions left alone); calls that differ only in a bound value or in which arguments share a
% variable have different entries; several answers served in order, the last without a choicepoint
fv(a, 1, x).
fv(b, 2, y).
fv(c, 2.0, c).
fw(K, V, W) :- fv(K, V, W).
% query fw(a, V, W), V == 1, W == x
% query fw(K, 2, W), K == b, W == y
% query fw(K, V, K), K == c, V == 2.0
% query \+ fw(a, _, y)
% query \+ fw(b, _, b)
% query findall(K, fw(K, _, _), L), L == [a, b, c]
% query findall(K-V, (mem(K, [a, b, a, c]), fw(K, V, _)), L), L == [a-1, b-2, a-1, c-2.0]
% query fw(c, V, W), V == 2.0, W == c, \+ fw(c, 2, _)
% fewer findall(V, (mem(K, [a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a]), fw(K, V, _)), L), L = [1|_]

% entries of atomic answers only (`serve_atomic`): each answer compared cell by cell and only a
% matching one bound; bound arguments, a variable given twice, floats by bit pattern (0.0 and -0.0
% differ, 1 and 1.0 differ), a compound argument (matches no answer), answers in order with a
% choicepoint between them, cut and negation after the first answer, and a memoized call whose
% answers are a generalisation's (compound argument: long key)
at(a, 1, 1).
at(b, 2, 1).
at(c, 0.0, 0.0).
at(d, -0.0, 0.0).
at(e, 1.0, 1).
at(f, x, x).
at(g, 2, 2).
ta(K, V, W) :- at(K, V, W).
% query findall(K-V-W, ta(K, V, W), L), L == [a-1-1, b-2-1, c-0.0-0.0, d- -0.0-0.0, e-1.0-1, f-x-x, g-2-2]
% query findall(K, ta(K, X, X), L), L == [a, c, f, g]
% query findall(K, ta(K, _, 1), L), L == [a, b, e]
% query findall(K, ta(K, 0.0, _), L), L == [c]
% query findall(K, ta(K, -0.0, _), L), L == [d]
% query findall(K, ta(K, 1, _), L), L == [a]
% query findall(K, ta(K, 1.0, _), L), L == [e]
% query \+ ta(_, f(1), _)
% query findall(K, ta(K, [_], _), L), L == []
% query ta(K, 2, W), !, K == b, W == 1
% query findall(K, (ta(K, V, W), V == W), L), L == [a, c, f, g]
% query \+ \+ ta(_, 2, _)
% query findall(K, (mem(V, [2, 1, 2]), ta(K, V, _)), L), L == [b, g, a, b, g]
% query findall(V-W, ta(_, V, W), L), length(L, 7)
% fewer findall(K, (mem(_, [1, 2, 3, 4, 5, 6, 7, 8]), ta(K, _, 1)), L), length(L, 24)

% entries of atomic answers served again from the table: each retry moves the call's choicepoint
% on to the next matching answer in place (`Machine::serve_memo`), the last answer pops it
pos(knight, 1, 2).
pos(knight, 2, 1).
pos(knight, -1, 2).
pos(king, 1, 1).
pos(king, 1, 0).
pos(king, 0, 0).
mv(M, X, Y) :- pos(M, X, Y).
% query findall(M-X-Y, (mem(_, [a, b, c]), mv(M, X, Y)), L), length(L, 18), L = [knight-1-2, knight-2-1|_]
% query findall(X-Y, (mem(M, [knight, king, knight]), mv(M, X, Y)), L), L == [1-2, 2-1, -1-2, 1-1, 1-0, 0-0, 1-2, 2-1, -1-2]
% query findall(X, (mem(_, [a, b]), mv(king, X, X)), L), L == [1, 0, 1, 0]
% query findall(Y, (mem(_, [a, b, c]), mv(king, 1, Y)), L), L == [1, 0, 1, 0, 1, 0]
% query findall(M, (mem(_, [a, b]), mv(M, 1, Y), Y > 0), L), L == [knight, king, knight, king]
% query findall(X, (mem(_, [a, b]), mv(knight, X, 1), !), L), L == [2]
% query findall(X, (mem(_, [a, b]), mv(knight, X, 2), X < 0), L), L == [-1, -1]
% fewer findall(M-X-Y, (mem(_, [a, b, c, d, e]), mv(M, X, Y)), L), length(L, 30)

% The compiled core's own corpus (engine/src/solve/wam/, run by engine/tests/it/wam.rs): every
% `% query G` line runs G through the interpreter (memoization off) and through the core, and
% compares every answer, their order, the error and the inference count after each answer;
% `% budget N G` does the same with an inference budget of N (it must trip at the same call).

% --- naive reverse (bench/nrev.pl) ---
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).
range(N, N, [N]) :- !.
range(I, N, [I|T]) :- I1 is I + 1, range(I1, N, T).
loop(0, _) :- !.
loop(N, L) :- nrev(L, _), N1 is N - 1, loop(N1, L).
% query nrev([1,2,3,4,5], R)
% query range(1, 30, L), loop(20, L)
% query app(X, Y, [1,2,3])
% query app(X, [3], [1,2,3])
% query nrev(X, [1,2])
% budget 100 range(1, 30, L), loop(20, L)
% budget 1 nrev([1], R)
% budget 3 app(X, Y, [1,2,3])

% --- cut in every position ---
c1(1). c1(2). c1(3).
neck(X) :- !, c1(X).
neck(4).
mid(X) :- c1(X), !.
mid(9).
last(X) :- c1(X), X > 1, !.
last(9).
deep(X, Y) :- c1(X), !, c1(Y).
notcut(X) :- c1(X), \+ !.
ite_cut(X) :- ( c1(X), ! -> true ; X = none ).
ite_then_cut(X, Y) :- ( c1(X) -> c1(Y), ! ; true ).
ite_else_cut(X) :- ( fail -> true ; c1(X), ! ).
disj_cut(X) :- ( c1(X), ! ; X = 4 ).
disj_cut(5).
ifthen_cut(X) :- ( c1(X), ! -> true ).
cut_first(X) :- !, X = 1 ; X = 2.
% query neck(X)
% query mid(X)
% query last(X)
% query deep(X, Y)
% query notcut(X)
% query ite_cut(X)
% query ite_then_cut(X, Y)
% query ite_else_cut(X)
% query disj_cut(X)
% query ifthen_cut(X)
% query cut_first(X)
% query c1(X), !
% query !, c1(X)
% query (c1(X), ! ; X = 7)

% --- if-then-else, disjunction, negation ---
sign(X, S) :- ( X < 0 -> S = neg ; X =:= 0 -> S = zero ; S = pos ).
abs2(X, Y) :- ( X >= 0 -> Y = X ; Y is -X ).
either(X) :- ( X = a ; X = b ; X = c ).
both(X, Y) :- ( c1(X), c1(Y) ; X = y, Y = z ).
nonmem(X, L) :- \+ app(_, [X|_], L).
notnot(X) :- \+ \+ X = 1.
soft(X) :- not(c1(X)).
nested(X, Y) :- ( c1(X) -> ( X > 1 -> Y = big ; Y = small ) ; Y = none ).
ifthen(X) :- ( X > 1 -> true ).
% query sign(-3, S)
% query sign(0, S)
% query sign(7, S)
% query abs2(-4, Y)
% query abs2(4, Y)
% query either(X)
% query both(X, Y)
% query nonmem(4, [1,2,3])
% query nonmem(2, [1,2,3])
% query notnot(X)
% query soft(4)
% query soft(X)
% query nested(X, Y)
% query ifthen(3)
% query ifthen(0)
% query (c1(X) -> Y = X ; Y = 0)
% query \+ c1(4), X = 1
% query (c1(X), X > 1)
% query (true ; true), c1(X)
% query X = 1, (X == 1 -> Y = a ; Y = b)

% --- deep recursion in constant environment space (last calls) ---
count(N, N) :- !.
count(I, N) :- I1 is I + 1, count(I1, N).
len([], N, N).
len([_|T], N0, N) :- N1 is N0 + 1, len(T, N1, N).
sum([], S, S).
sum([X|Xs], S0, S) :- S1 is S0 + X, sum(Xs, S1, S).
% query count(0, 300000)
% query numlist(1, 100000, L), len(L, 0, N), sum(L, 0, S)

% --- first-argument switching on every key kind ---
k(a, atom).
k(1, int).
k(2.5, float).
k("s", string).
k(f(_), functor1).
k(f(_, _), functor2).
k([], nil).
k([_|_], list).
k(_, any).
k(g(X), X).
% query k(a, K)
% query k(1, K)
% query k(2.5, K)
% query k("s", K)
% query k(f(1), K)
% query k(f(1, 2), K)
% query k([], K)
% query k([x], K)
% query k(zzz, K)
% query k(g(7), K)
% query k(X, K)

% --- heads: nested compounds, repeated variables, write mode ---
h(f(X, g(Y, [X|Z])), Y, Z).
h2(X, X).
h3(p(A, A, q(B)), B).
h4([a, [b, c], d(E)], E).
% query h(f(1, g(2, [1, 3])), Y, Z)
% query h(T, 2, [4])
% query h(f(1, g(2, [3])), Y, Z)
% query h2(f(X), f(1))
% query h2(a, b)
% query h3(p(1, X, q(2)), B)
% query h3(T, 5)
% query h4(L, 9)
% query h4([a, [b, c], d(1)], E)
% query h4([a, [b, x], d(1)], E)

% --- body arguments: nested compounds, first occurrences, voids ---
mk(T) :- T = f(g(X, [1, 2 | X]), _, h(Y, Y), "str", 3.5).
mk2(L) :- app([a, b(c, [d])], [Z, Z], L).
voids(X) :- h2(_, X), h2(_, _).
% query mk(T)
% query mk2(L)
% query voids(3)

% --- built-ins and errors ---
ar(X) :- Y is X * 2 + 1, Y > 5.
err1(X) :- Y is X + a, Y > 0.
err2 :- atom_length(X, _), X = 1.
err3 :- undefined_pred(1).
err4(X) :- c1(X), X > 2, _ is foo + 1.
err5 :- X is 1 / 0, X > 0.
% query ar(3)
% query ar(2)
% query err1(1)
% query err1(_)
% query err2
% query err3
% query err4(X)
% query err5
% query between(1, 3, X)
% query between(1, 3, X), X > 1
% query c1(X), between(X, 2, Y)
% query length(L, 2)
% query msort([c, a, b], L)
% query atom_codes(A, [0'a, 0'b]), atom_length(A, N)
% query X = f(Y), Y = 1, X == f(1), X \== f(2), X \= g(_)
% query functor(T, f, 3), arg(1, T, a), T =.. L
% query copy_term(f(X, Y, X), C)
% query findall(X, c1(X), L)

% --- library predicates (the prelude) ---
% query member(X, [a, b, c])
% query memberchk(b, [a, b, c])
% query append(X, Y, [1, 2])
% query append([1], [2], L)
% query reverse([1, 2, 3], L)
% query nth0(1, [a, b, c], E)
% query nth1(I, [a, b, c], E)
% query last([1, 2, 3], X)
% query select(b, [a, b, c], L)
% query permutation([1, 2, 3], P)
% query sum_list([1, 2, 3], S)
% query max_list([1, 5, 3], M)
% query exclude_dups([a, b, a], L)
% query delete([a, b, a], a, L)
% query subtract([1, 2, 3], [2], L)

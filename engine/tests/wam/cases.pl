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

% --- meta-calls: call/N, a variable goal (engine/src/solve/wam/meta.rs) ---
add(X, Y, Z) :- Z is X + Y.
twice(G, X, Z) :- call(G, X, Y), call(G, Y, Z).
vgoal(G) :- G.
vcut(X) :- G = !, c1(X), (G ; true).
vcut2(X) :- call((c1(X), !)).
vcut3(X) :- c1(X), call(!), X > 1.
nested(L) :- call(findall, X, call(c1, X), L).
% query call(c1, X)
% query call(add(1), 2, Z)
% query twice(add(3), 1, Z)
% query twice(app([a]), [], L)
% query vgoal(c1(X))
% query vgoal((c1(X), X > 1))
% query vgoal((c1(X) -> true ; fail))
% query vgoal((c1(X) ; X = 9))
% query vgoal(\+ c1(4))
% query vgoal(not(c1(X)))
% query vgoal(_)
% query vgoal(3)
% query vgoal((c1(X), 3))
% query vgoal((c1(X), _))
% query vgoal(undefined_goal(1))
% query vgoal(!)
% query vcut(X)
% query vcut2(X)
% query vcut3(X)
% query G = c1(X), G
% query G = (c1(X), !), call(G)
% query X = 1, call(G)
% query call(1)
% query call(foo:bar)
% query call(c1, X, Y)
% query nested(L)
% query maplist(add(1), [1, 2, 3], L)
% query maplist(c1, L)
% query foldl(add, [1, 2, 3], 0, S)
% query include(\=(2), [1, 2, 3], L)
% query once(c1(X))
% query ignore(c1(5))
% query \+ \+ c1(X)
% query not(c1(2))
% budget 5 twice(add(3), 1, Z)
% budget 10 maplist(add(1), [1, 2, 3, 4, 5, 6], L)

% --- findall/3,4, forall/2, aggregate_all/3 ---
fa1(L) :- findall(X-Y, (c1(X), findall(Z, (c1(Z), Z < X), Y)), L).
fa2(L) :- findall(X, (c1(X), !), L).
fa3(X, L) :- c1(X), findall(Y, (c1(Y), Y >= X), L).
fa4(L) :- findall(X, (c1(X), _ is X / (X - 2)), L).
fa5(N) :- findall(X, c1(X), L), length(L, N).
% query findall(X, c1(X), L)
% query findall(X, fail, L)
% query findall(f(X, Y), member(X-Y, [1-a, 2-B, 3-B]), L)
% query findall(X, c1(X), [A, B | C])
% query findall(X, c1(X), [_])
% query findall(X, c1(X), L, [end])
% query findall(X, G, L)
% query findall(X, 3, L)
% query findall(X, (c1(X) ; X = 4), L)
% query fa1(L)
% query fa2(L)
% query fa3(X, L)
% query fa4(L)
% query fa5(N)
% query forall(c1(X), X > 0)
% query forall(c1(X), X > 1)
% query aggregate_all(count, c1(_), N)
% query aggregate_all(sum(X), c1(X), S)
% query aggregate_all(max(X), c1(X), M)
% query aggregate_all(bag(X), c1(X), B)
% query aggregate_all(set(X), member(X, [b, a, b]), S)
% query aggregate_all(max(X, X), c1(X), M)
% query aggregate_all(count, fail, N)
% query aggregate_all(foo, c1(_), N)
% query findall(X, between(1, 5, X), L), sort(0, @>=, L, S)
% query setof(X, c1(X), L)
% query bagof(X-Y, member(X-Y, [1-a, 2-b, 1-c]), L)
% query permutation([1, 2, 3], P)
% query subtract([1, 2, 3], [2], L)
% budget 20 findall(X, between(1, 100, X), L)
% budget 30 fa1(L)

% --- catch/3, throw/1 ---
th(X) :- c1(X), X > 1, throw(found(X)).
cat1(R) :- catch(th(_), found(R), true).
cat2(X) :- catch(c1(X), _, true).
cat3(R) :- catch(err1(_), error(E, _), R = caught(E)).
cat4(R) :- catch(catch(th(_), other, R = inner), found(X), R = outer(X)).
cat5(X) :- catch(c1(X), _, true), X > 1, throw(late(X)).
cat6(R) :- catch(cat5(_), late(X), R = X).
cat7(L) :- findall(X, catch(th(X), found(Y), X = y(Y)), L).
cat8(R) :- catch((c1(X), X > 2, throw(x(X))), x(Y), (R = Y, !)).
cat9(R) :- catch(throw(_), E, R = E).
cat10(R) :- catch(call(1), E, R = E).
cat11(R) :- catch(findall(X, (c1(X), X > 2, throw(f(X))), _), f(Y), R = Y).
cat12(X) :- catch(c1(X), _, true), !.
loopy(N) :- N1 is N + 1, loopy(N1).
% query cat1(R)
% query cat2(X)
% query cat3(R)
% query cat4(R)
% query cat5(X)
% query cat6(R)
% query cat7(L)
% query cat8(R)
% query cat9(R)
% query cat10(R)
% query cat11(R)
% query cat12(X)
% query catch(true, _, true)
% query catch(fail, _, true)
% query catch(throw(a), b, true)
% query catch(throw(a), a, fail)
% query catch(throw(a), a, throw(b))
% query catch(throw(f(X)), f(Y), Y = 1)
% query catch(X is foo + 1, error(type_error(T, V), _), true)
% query catch(undefined_pred(1), error(E, C), true)
% query catch(atom_length(X, _), E, true)
% query catch(c1(X), E, true), X > 2
% query throw(x)
% query throw(_)
% query catch(loopy(0), E, true)
% budget 1000 catch(loopy(0), E, true)
% budget 7 cat1(R)

% --- soft-cut *-> ---
sc1(X, Y) :- (c1(X) *-> Y = X ; Y = none).
sc2(Y) :- (fail *-> Y = 1 ; Y = 2).
sc3(X) :- (c1(X) *-> true), X > 1.
sc4(X, Y) :- (c1(X), ! *-> Y = a ; Y = b).
% query sc1(X, Y)
% query sc2(Y)
% query sc3(X)
% query sc4(X, Y)
% query G = (c1(X) *-> Y = X ; Y = 0), call(G)
% query findall(X-Y, (c1(X) *-> member(Y, [a, b]) ; Y = none), L)

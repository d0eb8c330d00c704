% Recursive list and number predicates, written without library calls.
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).

nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).

% len/2 is not tail recursive: deep recursion on long lists.
len([], 0).
len([_|T], N) :- len(T, N0), N is N0 + 1.

len_acc(L, N) :- len_acc(L, 0, N).
len_acc([], N, N).
len_acc([_|T], N0, N) :- N1 is N0 + 1, len_acc(T, N1, N).

% count(N, L): L = [1, ..., N], not tail recursive.
upto(N, L) :- upto(1, N, L).
upto(I, N, []) :- I > N.
upto(I, N, [I|T]) :- I =< N, I1 is I + 1, upto(I1, N, T).

% A tail-recursive loop that counts down.
countdown(0) :- !.
countdown(N) :- N1 is N - 1, countdown(N1).

% sum of a list, not tail recursive.
sum([], 0).
sum([X|Xs], S) :- sum(Xs, S0), S is S0 + X.

fib(0, 0).
fib(1, 1).
fib(N, F) :- N > 1, N1 is N - 1, N2 is N - 2, fib(N1, F1), fib(N2, F2), F is F1 + F2.

fact(0, 1) :- !.
fact(N, F) :- N1 is N - 1, fact(N1, F1), F is N * F1.

ack(0, N, R) :- !, R is N + 1.
ack(M, 0, R) :- !, M1 is M - 1, ack(M1, 1, R).
ack(M, N, R) :- M1 is M - 1, N1 is N - 1, ack(M, N1, R1), ack(M1, R1, R).

hanoi(0, _, _, _, []) :- !.
hanoi(N, A, B, C, Moves) :-
    N1 is N - 1,
    hanoi(N1, A, C, B, M1),
    hanoi(N1, C, B, A, M2),
    app(M1, [A-B|M2], Moves).

% A deep term: s(s(...(0))).
peano(0, z) :- !.
peano(N, s(P)) :- N1 is N - 1, peano(N1, P).
unpeano(z, 0).
unpeano(s(P), N) :- unpeano(P, N0), N is N0 + 1.

% The n-queens puzzle.
queens(N, Qs) :- upto(N, Ns), perm(Ns, Qs), safe(Qs).
perm([], []).
perm(L, [X|Xs]) :- take(X, L, R), perm(R, Xs).
take(X, [X|T], T).
take(X, [H|T], [H|R]) :- take(X, T, R).
safe([]).
safe([Q|Qs]) :- no_attack(Q, Qs, 1), safe(Qs).
no_attack(_, [], _).
no_attack(Q, [Q1|Qs], D) :- Q =\= Q1 + D, Q =\= Q1 - D, D1 is D + 1, no_attack(Q, Qs, D1).

% Primes by trial division.
prime(2).
prime(N) :- N > 2, N mod 2 =\= 0, \+ has_factor(N, 3).
has_factor(N, F) :- F * F =< N, ( N mod F =:= 0 -> true ; F2 is F + 2, has_factor(N, F2) ).
primes_upto(N, Ps) :- findall(P, (between(2, N, P), prime(P)), Ps).

% Mutual recursion.
even(0).
even(N) :- N > 0, N1 is N - 1, odd(N1).
odd(N) :- N > 0, N1 is N - 1, even(N1).

% Difference lists.
flatten_dl(X, [X|T], T) :- atomic(X), X \== [], !.
flatten_dl([], T, T) :- !.
flatten_dl([H|Rest], L, T) :- flatten_dl(H, L, M), flatten_dl(Rest, M, T).
my_flatten(X, L) :- flatten_dl(X, L, []).

% Binary trees.
insert(X, nil, t(nil, X, nil)) :- !.
insert(X, t(L, Y, R), t(L1, Y, R)) :- X @< Y, !, insert(X, L, L1).
insert(X, t(L, Y, R), t(L, Y, R1)) :- X @> Y, !, insert(X, R, R1).
insert(_, T, T).
list_tree(L, T) :- list_tree(L, nil, T).
list_tree([], T, T).
list_tree([X|Xs], T0, T) :- insert(X, T0, T1), list_tree(Xs, T1, T).
inorder(nil, []).
inorder(t(L, X, R), Xs) :- inorder(L, Ls), inorder(R, Rs), app(Ls, [X|Rs], Xs).
depth(nil, 0).
depth(t(L, _, R), D) :- depth(L, DL), depth(R, DR), D is max(DL, DR) + 1.

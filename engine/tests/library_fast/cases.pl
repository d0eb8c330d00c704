% The native fast paths of library predicates (engine/src/solve/builtins/lists.rs: the loop of
% member/2 and append/3) against the prelude's clauses, run by engine/tests/it/library_fast.rs.
% Each `% case Goal` line runs with and without the fast paths: the answers (in order), whether
% choicepoints are left after each, the inferences counted, the errors, the `--profile` counts and
% the outcome under every inference budget up to the goal's count must all be the same.
% The predicates below call the library predicates from clause bodies (where the fast paths are).

mem(X, L) :- member(X, L).
app(A, B, C) :- append(A, B, C).
app2(Ls, L) :- append(Ls, L).
first(X, L) :- member(X, L), !.
cond(X, L, R) :- ( member(X, L), X > 2 -> R = yes ; R = no ).
count(L, N) :- findall(X, member(X, L), Xs), length(Xs, N).
neg(X, L) :- \+ member(X, L).
neg2(X, L) :- ( \+ member(X, L) -> true ; fail ).
pairs(L, P) :- member(X, L), member(Y, L), X < Y, P = X-Y.
loop(L, X) :- '$member_loop'(L, X, none).
twice(A, B, C, D) :- append(A, B, C), append(C, C, D).
long(N, X) :- numlist(1, N, L), member(X, L), X >= N.
longapp(N, L) :- numlist(1, N, A), append(A, [end], L).
split(L, A, B) :- append(A, B, L).
longlen(N, K) :- longapp(N, L), length(L, K).

% member/2 over proper lists: every element, the last without a choicepoint
% case mem(X, [a, b, c])
% case mem(b, [a, b, c])
% case mem(d, [a, b, c])
% case mem(X, [])
% case mem(X, [only])
% case mem(f(Y), [g(1), f(1), f(2), h])
% case mem(X, [A, B, A])
% case mem(X-Y, [1-a, 2-b, Z-c])
% case mem([R, C], [[1, 2], [3, 4]])
% case mem(X, [1, 2.0, "s", 'q', f(x), [l]])
% case first(X, [c, b, a])
% case first(z, [c, b, a])
% case cond(X, [1, 2, 3, 4], R)
% case cond(X, [1, 2], R)
% case count([a, b, c, d, e], N)
% case neg(d, [a, b, c])
% case neg(b, [a, b, c])
% case neg2(d, [a, b, c])
% case pairs([1, 2, 3, 4], P)
% case long(300, X)
% case long(5000, X)
% partial lists, improper lists and non-lists take the clauses
% case first(X, [a, b|T])
% case first(c, [a, b|T])
% case first(X, T)
% case mem(X, [a, b|foo])
% case mem(X, [a|foo])
% case mem(X, foo)
% case mem(X, [a, b|f(c, d)])
% case loop([a, b], X)
% case once(loop(T, X))
% case loop(foo, X)
% case loop([], none)
% append/3 with a proper first list
% case app([1, 2], [3], L)
% case app([], [3], L)
% case app([], X, L)
% case app([1, 2], X, L)
% case app([1, 2], [3], [1, 2, 3])
% case app([1, 2], [3], [1, 2])
% case app([1, 2], [3], [1, Y|Z])
% case app([X, Y], [Y], [a, b, c])
% case app([X, Y], [Y], [a, b, b])
% case app([1, 2], T, [1, 2, 3, 4])
% case app([1, 2], T, [1, 3, 3, 4])
% case app([1, 2], T, foo)
% case app([1, 2], T, [1|foo])
% case app([A, B], [C], [C, A, B])
% case app([f(X)], [X], L)
% case twice([a], [b], C, D)
% case longapp(300, L)
% case longlen(5000, K)
% case app2([[1], [2, 3], []], L)
% append/3 with a partial or improper first list, or an unbound one: the clauses
% case app([1|T], [3], L)
% case app(X, Y, [1, 2])
% case app(X, [2], [1, 2])
% case app([1|foo], [3], L)
% case app(foo, [3], L)
% case split([a, b, c], A, B)

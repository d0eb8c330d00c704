% Control constructs written in clause bodies (engine/src/solve/machine.rs, `control`: negation,
% if-then-else, call/N), run by engine/tests/it/control.rs. The answers of the same constructs as
% queries are compared with SWI-Prolog in tests/differential/corpus/{negation,ite,cut}.txt; this
% file checks them inside clauses, with memoization on and off, and what only this engine reports:
% - `% query G`: G succeeds exactly once (memoization on and off);
% - `% error G => Ball @ P1/N1 P2/N2 ...`: G throws the uncaught ball `Ball` (written canonically)
%   with that call path, outermost first (`SolveError::path`);
% - `% budget G => Limit`: G exhausts the budget `Limit` (inferences, frames, choicepoints, heap)
%   of the small limits of the driver, also when the work happens inside a negation.

n(1).
n(2).
n(3).

% plain goals under negation: user, native, memoized, and nested
mem(X, [X|_]).
mem(X, [_|T]) :- mem(X, T).
absent(X, L) :- \+ mem(X, L).
present(X, L) :- \+ \+ mem(X, L).
nonvar_not(X) :- not(var(X)).
not_eq(X, Y) :- not(X = Y).
% query absent(d, [a, b, c])
% query \+ absent(b, [a, b, c])
% query present(b, [a, b, c]), \+ present(d, [a])
% query present(X, [a]), var(X)
% query nonvar_not(f(_)), \+ nonvar_not(_)
% query not_eq(a, b), \+ not_eq(a, _)
% query findall(X, (n(X), \+ mem(X, [2])), L), L == [1, 3]

% a memoized predicate (depends on its arguments only) under negation, called again from its table
double(X, Y) :- n(X), Y is 2 * X.
no_double(Y) :- \+ double(_, Y).
% query no_double(5), \+ no_double(4), no_double(7), \+ no_double(6), \+ no_double(4)
% query findall(Y, (mem(Y, [1, 2, 3, 4, 5, 6]), \+ double(_, Y)), L), L == [1, 3, 5]

% the negated goal's bindings are undone, on success and on failure
undo(X) :- \+ X = a, X = b.
undo2(X) :- \+ \+ X = a, var(X).
% query \+ undo(_), undo2(Y), var(Y)

% a negated goal decided by its first call (`not_outcome`): bindings made before a failure are
% undone; many of them in a row, with garbage collections in between (debug builds collect often)
bind_fail(X) :- \+ f(X, X) = f(a, b), var(X).
bind_ok(X) :- \+ \+ f(X, b) = f(a, _), var(X).
neg_count(0) :- !.
neg_count(N) :-
    L = [N, N, N, N, N, N, N, N, N, N],
    \+ \+ mem(N, L), \+ N = x, \+ mem(x, L), not(double(_, 5)), \+ double(N, 1),
    M is N - 1, neg_count(M).
% query bind_fail(X), var(X), bind_ok(Y), var(Y)
% query neg_count(3000)

% a negated host or native call is decided without the negation's choicepoint (`not_direct`):
% failure, success (between/3 leaves a choicepoint), bindings undone, errors with their call path,
% budgets, and garbage collected right after such a call succeeds (debug builds collect often)
neg_native_err :- \+ _ > 1.
neg_between(X) :- \+ between(4, 3, X), \+ \+ between(1, 3, X), \+ (between(1, 3, Y), Y > 3).
neg_retry(L) :- findall(X, (between(1, 4, X), \+ between(2, 3, X)), L).
deep_not(N) :- \+ N = a, M is N + 1, deep_not(M), true.
neg_grow(0) :- !.
neg_grow(N) :-
    L = [N, N, N, N, N, N, N, N, N, N],
    \+ \+ \+ \+ length(_, 400), \+ length(L, 2), \+ \+ L = [N|_], M is N - 1, neg_grow(M).
% query neg_between(X), var(X), neg_retry(L), L == [1, 4]
% query catch(neg_native_err, error(instantiation_error, _), true)
nb(X) :- \+ between(1, 3, X).
neg_retry_gc(0) :- !.
neg_retry_gc(N) :- \+ nb(_), \+ nb(_), \+ nb(_), M is N - 1, neg_retry_gc(M).
% query neg_grow(4000)
% query neg_retry_gc(8000)
% error neg_native_err => error(instantiation_error,context(/(>,2),_)) @ neg_native_err/0
% budget deep_not(0) => frames

% a cut inside the negation is local to it (here: inside a called predicate and written in place)
first(X) :- n(X), !.
no_first_above(L) :- \+ (first(X), X > L).
cut_local(X) :- \+ (n(X), !, X > 1), n(X).
cut_local2(R) :- n(X), \+ (!, fail), R = X.
% query no_first_above(1), \+ no_first_above(0)
% query findall(X, cut_local(X), L), L == [1, 2, 3]
% query findall(R, cut_local2(R), L), L == [1, 2, 3]

% a choicepoint left by the negated goal is removed by the negation's success
many(X) :- mem(X, [1, 2, 3, 1]).
once_not(X) :- \+ \+ many(X), n(X).
% query findall(X, once_not(X), L), L == [1, 2, 3]

% negation of a goal bound at run time, of a control construct, of call/N
neg_of(G) :- \+ G.
% query neg_of(fail), \+ neg_of(true), neg_of((n(X), X > 5)), \+ neg_of((n(Y), Y > 2))
% query neg_of(call(mem, z, [a])), \+ neg_of(call(mem(a), [a]))
% query neg_of(\+ true), \+ neg_of(\+ fail), neg_of(not(n(1)))
% query neg_of((fail ; fail)), \+ neg_of((fail ; true)), neg_of((true -> fail ; true))

% exceptions inside a negation propagate (caught outside, or uncaught with the call path)
bad(X) :- X > 1.
neg_bad(X) :- \+ bad(X).
outer(X) :- neg_bad(X).
neg_throw :- \+ throw(oops).
neg_unknown :- \+ no_such_pred(1).
neg_type :- G = 1, \+ G.
neg_var :- \+ _.
% query catch(neg_bad(_), error(instantiation_error, _), true)
% query neg_bad(0), \+ neg_bad(5)
% query catch(neg_throw, B, true), B == oops
% error outer(_) => error(instantiation_error,context(/(>,2),_)) @ bad/1
% error neg_throw => oops @ neg_throw/0
% error neg_unknown => error(existence_error(procedure,/(no_such_pred,1)),context(/(no_such_pred,1),_)) @ neg_unknown/0
% error neg_type => error(type_error(callable,1),context(/(\+,1),_)) @ neg_type/0
% error neg_var => error(instantiation_error,context(/(\+,1),_)) @ neg_var/0

% if-then-else in clause bodies: the condition's choicepoints are cut, the branches are not
ite(X, R) :- ( n(X) -> R = yes ; R = no ).
ite_all(L) :- findall(R, ( n(X), ( X > 1 -> R = big(X) ; R = small(X) ) ), L).
ite_then_nd(L) :- findall(Y, ( true -> mem(Y, [a, b]) ; Y = c ), L).
ite_else_nd(L) :- findall(Y, ( fail -> Y = z ; mem(Y, [a, b]) ), L).
ite_cut(X) :- ( n(X), ! -> true ; true ).
ite_no_else(X) :- ( X > 0 -> true ).
% query findall(X-R, ite(X, R), L), L == [1-yes]
% query ite_all(L), L == [small(1), big(2), big(3)]
% query ite_then_nd(L), L == [a, b]
% query ite_else_nd(L), L == [a, b]
% query findall(X, ite_cut(X), L), L == [1]
% query ite_no_else(1), \+ ite_no_else(0)
% error ite_no_else(_) => error(instantiation_error,context(/(>,2),_)) @ ite_no_else/1

% budgets apply inside a negation
loop :- loop.
deep(X) :- deep(f(X)), true.
neg_loop :- \+ loop.
neg_deep :- \+ deep(a).
% budget neg_loop => inferences
% budget neg_deep => frames
% the heap budget counts the cells findall collectors hold (`Machine::heap_at`)
heap_hog :- findall(L, (between(1, 150, _), length(L, 30000)), _).
neg_heap_hog :- \+ heap_hog.
% budget neg_heap_hog => heap
% a negated argument-memo call with a filled entry is decided from the entry
% (`Machine::memo_answer_exists`): no answer, answers, a repeated variable, and budgets reached
% in a run of such calls (the general path is taken near a budget, so the same one is reported)
same(X, X) :- n(X).
neg_memo(Y) :- \+ double(_, Y), \+ \+ double(_, 4), \+ same(Y, Y), \+ same(5, 5), \+ \+ same(2, 2).
neg_memo_loop :- \+ double(_, 5), \+ \+ double(1, _), neg_memo_loop.
neg_memo_deep(X) :- \+ double(_, 5), \+ \+ double(_, 2), neg_memo_deep(f(X)), true.
% query neg_memo(5), neg_memo(7), \+ neg_memo(2), neg_memo(5), \+ neg_memo(4), \+ neg_memo(6)
% query findall(Y, (mem(Y, [1, 2, 3, 4, 5, 6]), \+ double(_, Y), \+ double(_, Y)), L), L == [1, 3, 5]
% budget neg_memo_loop => inferences
% budget neg_memo_deep(a) => frames

% call/N in clause bodies: a plain goal, a control construct (cut local to the call), errors
call_plain(X) :- call(mem(X), [a, b]).
call_cut(X) :- call((n(X), !)).
call_cut(9).
call_bad :- call(bad(_)).
call_n_bad :- call(bad, _).
call_var :- call(_).
call_num :- G = 1, call(G, a).
% query findall(X, call_plain(X), L), L == [a, b]
% query findall(X, call_cut(X), L), L == [1, 9]
% query catch(call_bad, error(instantiation_error, _), true)
% error call_bad => error(instantiation_error,context(/(>,2),_)) @ bad/1
% error call_n_bad => error(instantiation_error,context(/(>,2),_)) @ bad/1
% error call_var => error(instantiation_error,context(/(call,1),_)) @ call_var/0
% error call_num => error(type_error(callable,1),context(/(call,2),_)) @ call_num/0

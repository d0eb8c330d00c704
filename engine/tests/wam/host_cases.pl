% The compiled core with host predicates (engine/tests/it/wam.rs, `host_corpus`): the test host
% declares hfact/1 (facts 1, 2, 3, each a retry), hmake/1 (an undoable effect: appends its
% argument to a log), hmade/1 (the log's entries, each a retry), hkept/1 (retries with states
% whose high bits are set: `Host::retry_kept` answers the fourth), hbad/1 (a type error when
% its argument is unbound). Every `% query G` line runs G through both engines with one test
% host each and compares the answers, inference counts and the hosts' call and undo logs.

pair(X, Y) :- hfact(X), hfact(Y), X < Y.
make_all :- hfact(X), hmake(X), fail.
make_all.
make_some(X) :- hfact(X), hmake(X), X >= 2.
make_then_see(L) :- hmake(a), hmake(b), hmade(L).
undone(X) :- \+ (hmake(z), fail), ( hmade(X) -> true ; X = none ).
first_fact(X) :- once(hfact(X)).
first_pair(X, Y) :- once((hfact(X), hfact(Y), X > Y)).
not_fact(X) :- not(hfact(X)).
once_cut(X) :- once((hfact(X), !)), hfact(X).
kept(X) :- hkept(X).
bad(X) :- hbad(X).
cond(X, Y) :- ( hfact(X), X > 1 -> hmake(X), Y = yes ; Y = no ).
% query hfact(X)
% query hfact(2)
% query hfact(7)
% query pair(X, Y)
% query make_all, hmade(X)
% query make_some(X)
% query make_then_see(L)
% query undone(X)
% query hmake(q), hmade(X)
% query first_fact(X)
% query first_pair(X, Y)
% query once(hfact(X))
% query once(pair(X, Y)), hmake(X)
% query not_fact(9)
% query not_fact(1)
% query once_cut(X)
% query kept(X)
% query hkept(X), X > 2
% query bad(1)
% query bad(_)
% query hfact(X), bad(Y)
% query cond(X, Y)
% query once(member(X, [a, b])), hmake(X), hmade(Y)
% query hmake(1), once(fail)
% query once(!), hfact(X)

% The SIDL prelude: the part of the built-in library (docs/builtins.md, docs/semantics.md §8)
% that is written in Prolog. The engine loads it before every game (`include_str!` in solve/mod.rs).
%
% Rules for this file:
% - Plain ISO Prolog for our own engine: no modules, no directives, no assert, no global variables,
%   no I/O. It only calls the control constructs of the machine (',' ';' '->' '*->' '\+' not/1 call/1..8
%   '!' true fail false catch/3 throw/1 findall/3 findall/4), the native built-ins (is/2, comparison,
%   type checks, =, ==, compare/3, functor/3, arg/3, =../2, copy_term/2, term_variables/2, atom_codes/2,
%   number_codes/2, msort/2, sort/2, sort/4, keysort/2, length/2, memberchk/2, is_list/2, ...) and the
%   predicates defined here. engine/tests/differential/prelude_check.pl verifies this.
% - Helper predicates start with '$' so they never clash with a game's predicates.
% - Semantics are SWI-Prolog 9's (library(lists), library(apply), library(sort), library(aggregate),
%   boot/bags.pl), clause shapes included, so answers come in the same order; the differential test
%   (swipl/tests/it/differential.rs) checks this against swipl. Errors are the ones SWI throws, including
%   its "no matching rule" errors for the predicates SWI writes with single-sided unification (=>).
% - A game's own definition of one of these predicates replaces the library one (with a warning).
%
% Known limits: cyclic lists make the list walkers loop; aggregate_all/3 supports the templates
% count, sum(E), max(E), min(E), max(E,W), min(E,W), bag(T), set(T) (not SWI's compound templates).

% ---------------------------------------------------------------------------------------------------
% Control
% ---------------------------------------------------------------------------------------------------

% once(:Goal): the first solution of Goal only.
once(Goal) :-
    call(Goal),
    !.

% ignore(:Goal): call Goal once; succeed anyway if it fails.
ignore(Goal) :-
    call(Goal),
    !.
ignore(_).

% forall(:Cond, :Action): Action succeeds for every solution of Cond (no bindings are kept).
forall(Cond, Action) :-
    \+ ( call(Cond), \+ call(Action) ).

% ---------------------------------------------------------------------------------------------------
% Internal helpers shared by several predicates
% ---------------------------------------------------------------------------------------------------

% '$list_skip'(+List, -Length, -Tail): List is Length cells followed by Tail (a non-cell or a variable).
'$list_skip'(List, Length, Tail) :-
    '$list_skip'(List, 0, Length, Tail).

% '$list_skip'(+List, +Length0, -Length, -Tail): accumulator loop of '$list_skip'/3.
'$list_skip'(List, N0, N, Tail) :-
    (   nonvar(List), List = [_|Rest]
    ->  N1 is N0 + 1,
        '$list_skip'(Rest, N1, N, Tail)
    ;   N = N0,
        Tail = List
    ).

% '$must_be_list'(@Term): SWI's must_be(list, Term): instantiation_error on a partial list,
% type_error(list, Term) on anything else that is not a proper list.
'$must_be_list'(List) :-
    '$list_skip'(List, _, Tail),
    (   Tail == []
    ->  true
    ;   var(Tail)
    ->  throw(error(instantiation_error, _))
    ;   throw(error(type_error(list, List), _))
    ).

% '$no_matching_rule'(+Goal): the error SWI throws when no rule of a (=>) predicate in library(lists)
% matches Goal (e.g. subtract/3 called with a partial list).
'$no_matching_rule'(Goal) :-
    throw(error(existence_error(matching_rule, lists:Goal), _)).

% ---------------------------------------------------------------------------------------------------
% Lists
% ---------------------------------------------------------------------------------------------------

% member(?Elem, ?List): Elem is an element of List (no choice point after the last element).
member(Elem, [H|T]) :-
    '$member_loop'(T, Elem, H).

% '$member_loop'(?Tail, ?Elem, ?Head): Elem is Head or an element of Tail.
'$member_loop'(_, Elem, Elem).
'$member_loop'([H|T], Elem, _) :-
    '$member_loop'(T, Elem, H).

% append(?List1, ?List2, ?List12): List12 is List1 followed by List2.
append([], L, L).
append([H|T], L, [H|R]) :-
    append(T, L, R).

% append(+ListOfLists, ?List): List is the concatenation of the lists in ListOfLists.
append(ListOfLists, List) :-
    '$must_be_list'(ListOfLists),
    '$append_lists'(ListOfLists, List).

% '$append_lists'(+ListOfLists, ?List): the loop of append/2.
'$append_lists'([], []).
'$append_lists'([L|Ls], As) :-
    append(L, Ws, As),
    '$append_lists'(Ls, Ws).

% nth0(?Index, ?List, ?Elem): Elem is the element of List at 0-based Index (enumerates when Index
% is unbound; a negative Index fails; a non-integer Index is a type error).
nth0(Index, List, Elem) :-
    (   integer(Index)
    ->  Index >= 0,
        '$nth0_det'(Index, List, Elem)
    ;   var(Index)
    ->  List = [H|T],
        '$nth_gen'(T, Elem, H, 0, Index)
    ;   throw(error(type_error(integer, Index), _))
    ).

% nth1(?Index, ?List, ?Elem): as nth0/3, counting from 1.
nth1(Index, List, Elem) :-
    (   integer(Index)
    ->  Index0 is Index - 1,
        Index0 >= 0,
        '$nth0_det'(Index0, List, Elem)
    ;   var(Index)
    ->  List = [H|T],
        '$nth_gen'(T, Elem, H, 1, Index)
    ;   throw(error(type_error(integer, Index), _))
    ).

% '$nth0_det'(+Index, ?List, ?Elem): Elem is at Index >= 0 of List (deterministic; extends a partial
% list). May be replaced by a native built-in of the same name and meaning.
'$nth0_det'(0, [Elem|_], Elem) :-
    !.
'$nth0_det'(N, [_|Tail], Elem) :-
    M is N - 1,
    '$nth0_det'(M, Tail, Elem).

% '$nth_gen'(?Tail, ?Elem, ?Head, +Base, ?Index): enumerates Index = Base, Base+1, ... with Elem.
'$nth_gen'(_, Elem, Elem, Base, Base).
'$nth_gen'([H|Tail], Elem, _, N, Base) :-
    M is N + 1,
    '$nth_gen'(Tail, Elem, H, M, Base).

% last(?List, ?Last): Last is the last element of List.
last([X|Xs], Last) :-
    '$last_'(Xs, X, Last).

% '$last_'(?Tail, ?Prev, ?Last): the loop of last/2.
'$last_'([], Last, Last).
'$last_'([X|Xs], _, Last) :-
    '$last_'(Xs, X, Last).

% reverse(?List, ?Reversed): Reversed has the elements of List in reverse order (terminates when
% either argument is a proper list).
reverse(Xs, Ys) :-
    '$reverse_acc'(Xs, Ys, [], Ys).

% '$reverse_acc'(?Xs, ?Bound, +Acc, ?Ys): the loop of reverse/2; Bound stops it when Ys is proper.
'$reverse_acc'([], [], Ys, Ys).
'$reverse_acc'([X|Xs], [_|Bound], Rs, Ys) :-
    '$reverse_acc'(Xs, Bound, [X|Rs], Ys).

% select(?Elem, ?List, ?Rest): Rest is List without one occurrence of Elem.
select(X, [Head|Tail], Rest) :-
    '$select3_'(Tail, Head, X, Rest).

% '$select3_'(?Tail, ?Head, ?Elem, ?Rest): the loop of select/3.
'$select3_'(Tail, Head, Head, Tail).
'$select3_'([Head2|Tail], Head, X, [Head|Rest]) :-
    '$select3_'(Tail, Head2, X, Rest).

% selectchk(?Elem, ?List, ?Rest): the first solution of select/3.
selectchk(Elem, List, Rest) :-
    select(Elem, List, Rest0),
    !,
    Rest = Rest0.

% permutation(?List, ?Perm): Perm is a permutation of List (in select/3 order).
permutation(Xs, Ys) :-
    '$list_skip'(Xs, Xlen, XTail),
    '$list_skip'(Ys, Ylen, YTail),
    (   XTail == [], YTail == []
    ->  Xlen == Ylen
    ;   var(XTail), YTail == []
    ->  length(Xs, Ylen)
    ;   XTail == [], var(YTail)
    ->  length(Ys, Xlen)
    ;   var(XTail), var(YTail)
    ->  length(Xs, Len),
        length(Ys, Len)
    ;   '$must_be_list'(Xs),
        '$must_be_list'(Ys)
    ),
    '$perm'(Xs, Ys).

% '$perm'(?List, ?Perm): the enumeration of permutation/2.
'$perm'([], []).
'$perm'(List, [First|Perm]) :-
    select(First, List, Rest),
    '$perm'(Rest, Perm).

% delete(+List, @Elem, -Rest): Rest is List without the elements that unify with Elem (Elem is not
% bound). This is SWI's list predicate delete/3; the SIDL keyword delete/1 has another arity.
delete([], _, []).
delete([Elem|Tail], Del, Result) :-
    (   \+ Elem \= Del
    ->  delete(Tail, Del, Result)
    ;   Result = [Elem|Rest],
        delete(Tail, Del, Rest)
    ).

% subtract(+Set, +Delete, -Rest): Rest is Set without the elements that are in Delete (memberchk/2).
subtract(L, D, R) :-
    (   L == []
    ->  R = []
    ;   nonvar(L), L = [E|T]
    ->  (   memberchk(E, D)
        ->  subtract(T, D, R)
        ;   R = [E|R1],
            subtract(T, D, R1)
        )
    ;   '$no_matching_rule'(subtract(L, D, R))
    ).

% intersection(+Set1, +Set2, -Set3): the elements of Set1 that are in Set2 (memberchk/2), in order.
intersection(L1, L, R) :-
    (   L1 == []
    ->  R = []
    ;   nonvar(L1), L1 = [X|T]
    ->  (   memberchk(X, L)
        ->  R = [X|R1],
            intersection(T, L, R1)
        ;   intersection(T, L, R)
        )
    ;   '$no_matching_rule'(intersection(L1, L, R))
    ).

% union(+Set1, +Set2, -Set3): the elements of Set1 that are not in Set2, followed by Set2.
union(L1, L, R) :-
    (   L1 == []
    ->  R = L
    ;   nonvar(L1), L1 = [H|T]
    ->  (   memberchk(H, L)
        ->  union(T, L, R)
        ;   R = [H|R1],
            union(T, L, R1)
        )
    ;   '$no_matching_rule'(union(L1, L, R))
    ).

% max_member(-Max, +List): Max is the largest element of List in the standard order of terms.
max_member(Max, List) :-
    (   nonvar(List), List = [H|T]
    ->  '$max_member_'(T, H, Max)
    ;   List == []
    ->  fail
    ;   '$no_matching_rule'(max_member(Max, List))
    ).

% '$max_member_'(+Tail, +Max0, -Max): the loop of max_member/2.
'$max_member_'(L, Max0, Max) :-
    (   L == []
    ->  Max = Max0
    ;   nonvar(L), L = [H|T]
    ->  (   H @=< Max0
        ->  '$max_member_'(T, Max0, Max)
        ;   '$max_member_'(T, H, Max)
        )
    ;   '$no_matching_rule'(max_member_(L, Max0, Max))
    ).

% min_member(-Min, +List): Min is the smallest element of List in the standard order of terms.
min_member(Min, List) :-
    (   nonvar(List), List = [H|T]
    ->  '$min_member_'(T, H, Min)
    ;   List == []
    ->  fail
    ;   '$no_matching_rule'(min_member(Min, List))
    ).

% '$min_member_'(+Tail, +Min0, -Min): the loop of min_member/2.
'$min_member_'(L, Min0, Min) :-
    (   L == []
    ->  Min = Min0
    ;   nonvar(L), L = [H|T]
    ->  (   H @>= Min0
        ->  '$min_member_'(T, Min0, Min)
        ;   '$min_member_'(T, H, Min)
        )
    ;   '$no_matching_rule'(min_member_(L, Min0, Min))
    ).

% predsort(:Compare, +List, -Sorted): merge sort of List by call(Compare, Order, A, B) with Order one
% of <, >, =; elements comparing = are kept once.
predsort(P, L, Sorted) :-
    '$list_skip'(L, N, Tail),
    (   Tail == []
    ->  '$predsort'(P, N, L, _, Sorted1),
        Sorted = Sorted1
    ;   var(L)
    ->  throw(error(instantiation_error, _))
    ;   throw(error(existence_error(type, L), _))   % as SWI 9.0.4 (it calls must_be(L, list))
    ).

% '$predsort'(:P, +N, +List, -Rest, -Sorted): sorts the first N elements of List; Rest is the others.
'$predsort'(P, 2, [X1, X2|L], L, R) :-
    !,
    call(P, Delta, X1, X2),
    '$sort2'(Delta, X1, X2, R).
'$predsort'(_, 1, [X|L], L, [X]) :-
    !.
'$predsort'(_, 0, L, L, []) :-
    !.
'$predsort'(P, N, L1, L3, R) :-
    N1 is N // 2,
    N2 is N - N1,
    '$predsort'(P, N1, L1, L2, R1),
    '$predsort'(P, N2, L2, L3, R2),
    '$predmerge'(P, R1, R2, R).

% '$sort2'(+Delta, +X1, +X2, -Sorted): a sorted pair (or singleton) by the order Delta.
'$sort2'(<, X1, X2, [X1, X2]).
'$sort2'(=, X1, _, [X1]).
'$sort2'(>, X1, X2, [X2, X1]).

% '$predmerge'(:P, +Sorted1, +Sorted2, -Sorted): merges two sorted lists.
'$predmerge'(_, [], R, R) :-
    !.
'$predmerge'(_, R, [], R) :-
    !.
'$predmerge'(P, [H1|T1], [H2|T2], Result) :-
    call(P, Delta, H1, H2),
    !,
    '$predmerge_'(Delta, P, H1, H2, T1, T2, Result).

% '$predmerge_'(+Delta, :P, +H1, +H2, +T1, +T2, -Result): one merge step by the order Delta.
'$predmerge_'(>, P, H1, H2, T1, T2, [H2|R]) :-
    '$predmerge'(P, [H1|T1], T2, R).
'$predmerge_'(=, P, H1, _, T1, T2, [H1|R]) :-
    '$predmerge'(P, T1, T2, R).
'$predmerge_'(<, P, H1, H2, T1, T2, [H1|R]) :-
    '$predmerge'(P, T1, [H2|T2], R).

% ---------------------------------------------------------------------------------------------------
% Higher order (library(apply))
% ---------------------------------------------------------------------------------------------------

% include(:Goal, +List, -Included): the elements E of List for which call(Goal, E) succeeds.
include(Goal, List, Included) :-
    '$include_'(List, Goal, Included).

% '$include_'(+List, :Goal, -Included): the loop of include/3.
'$include_'([], _, []).
'$include_'([X1|Xs1], P, Included) :-
    (   call(P, X1)
    ->  Included = [X1|Included1]
    ;   Included = Included1
    ),
    '$include_'(Xs1, P, Included1).

% exclude(:Goal, +List, -Excluded): the elements E of List for which call(Goal, E) fails.
exclude(Goal, List, Excluded) :-
    '$exclude_'(List, Goal, Excluded).

% '$exclude_'(+List, :Goal, -Excluded): the loop of exclude/3.
'$exclude_'([], _, []).
'$exclude_'([X1|Xs1], P, Excluded) :-
    (   call(P, X1)
    ->  Excluded = Excluded1
    ;   Excluded = [X1|Excluded1]
    ),
    '$exclude_'(Xs1, P, Excluded1).

% partition(:Pred, +List, -Included, -Excluded): splits List by call(Pred, E), keeping the order.
partition(Pred, List, Included, Excluded) :-
    '$partition_'(List, Pred, Included, Excluded).

% '$partition_'(+List, :Pred, -Included, -Excluded): the loop of partition/4.
'$partition_'([], _, [], []).
'$partition_'([H|T], Pred, Incl, Excl) :-
    (   call(Pred, H)
    ->  Incl = [H|I],
        '$partition_'(T, Pred, I, Excl)
    ;   Excl = [H|E],
        '$partition_'(T, Pred, Incl, E)
    ).

% maplist(:Goal, ?List): call(Goal, E) succeeds for every element E of List.
maplist(Goal, List) :-
    '$maplist_'(List, Goal).

% '$maplist_'(?List, :Goal): the loop of maplist/2.
'$maplist_'([], _).
'$maplist_'([E|Es], Goal) :-
    call(Goal, E),
    '$maplist_'(Es, Goal).

% maplist(:Goal, ?List1, ?List2): call(Goal, E1, E2) for the pairs of elements at the same position.
maplist(Goal, List1, List2) :-
    '$maplist_'(List1, List2, Goal).

% '$maplist_'(?List1, ?List2, :Goal): the loop of maplist/3.
'$maplist_'([], [], _).
'$maplist_'([E1|Es1], [E2|Es2], Goal) :-
    call(Goal, E1, E2),
    '$maplist_'(Es1, Es2, Goal).

% maplist(:Goal, ?List1, ?List2, ?List3): as maplist/3 with three lists.
maplist(Goal, List1, List2, List3) :-
    '$maplist_'(List1, List2, List3, Goal).

% '$maplist_'(?List1, ?List2, ?List3, :Goal): the loop of maplist/4.
'$maplist_'([], [], [], _).
'$maplist_'([E1|Es1], [E2|Es2], [E3|Es3], Goal) :-
    call(Goal, E1, E2, E3),
    '$maplist_'(Es1, Es2, Es3, Goal).

% maplist(:Goal, ?List1, ?List2, ?List3, ?List4): as maplist/3 with four lists.
maplist(Goal, List1, List2, List3, List4) :-
    '$maplist_'(List1, List2, List3, List4, Goal).

% '$maplist_'(?List1, ?List2, ?List3, ?List4, :Goal): the loop of maplist/5.
'$maplist_'([], [], [], [], _).
'$maplist_'([E1|Es1], [E2|Es2], [E3|Es3], [E4|Es4], Goal) :-
    call(Goal, E1, E2, E3, E4),
    '$maplist_'(Es1, Es2, Es3, Es4, Goal).

% foldl(:Goal, ?List, +V0, -V): folds call(Goal, E, Acc0, Acc) over List from the left.
foldl(Goal, List, V0, V) :-
    '$foldl_'(List, Goal, V0, V).

% '$foldl_'(?List, :Goal, +V0, -V): the loop of foldl/4.
'$foldl_'([], _, V, V).
'$foldl_'([X|Xs], Goal, V0, V) :-
    call(Goal, X, V0, V1),
    '$foldl_'(Xs, Goal, V1, V).

% foldl(:Goal, ?List1, ?List2, +V0, -V): folds call(Goal, E1, E2, Acc0, Acc) over two lists.
foldl(Goal, List1, List2, V0, V) :-
    '$foldl_'(List1, List2, Goal, V0, V).

% '$foldl_'(?List1, ?List2, :Goal, +V0, -V): the loop of foldl/5.
'$foldl_'([], [], _, V, V).
'$foldl_'([X|Xs], [Y|Ys], Goal, V0, V) :-
    call(Goal, X, Y, V0, V1),
    '$foldl_'(Xs, Ys, Goal, V1, V).

% foldl(:Goal, ?List1, ?List2, ?List3, +V0, -V): folds call(Goal, E1, E2, E3, Acc0, Acc) over three lists.
foldl(Goal, List1, List2, List3, V0, V) :-
    '$foldl_'(List1, List2, List3, Goal, V0, V).

% '$foldl_'(?List1, ?List2, ?List3, :Goal, +V0, -V): the loop of foldl/6.
'$foldl_'([], [], [], _, V, V).
'$foldl_'([X|Xs], [Y|Ys], [Z|Zs], Goal, V0, V) :-
    call(Goal, X, Y, Z, V0, V1),
    '$foldl_'(Xs, Ys, Zs, Goal, V1, V).

% ---------------------------------------------------------------------------------------------------
% All solutions: bagof/3, setof/3 (boot/bags.pl of SWI-Prolog), aggregate_all/3
% ---------------------------------------------------------------------------------------------------

% bagof(+Template, :Goal, -Bag): the Template instances of Goal's solutions, one bag per binding of
% Goal's free variables (those not in Template and not marked with V^), bags ordered by the standard
% order of those bindings, each bag in solution order. Fails when Goal has no solution.
bagof(Templ, Goal0, List) :-
    '$bag_free_vars'(Templ, Goal0, Goal, Vars),
    (   Vars == v
    ->  findall(Templ, Goal, List),
        List \== []
    ;   findall(Vars-Templ, Goal, Answers),
        '$bind_bagof_keys'(Answers, _),
        keysort(Answers, Sorted),
        '$pick'(Sorted, Vars, List)
    ).

% setof(+Template, :Goal, -Set): as bagof/3, each bag sorted (sort/2: duplicates removed).
setof(Templ, Goal0, List) :-
    '$bag_free_vars'(Templ, Goal0, Goal, Vars),
    (   Vars == v
    ->  findall(Templ, Goal, Answers),
        Answers \== [],
        sort(Answers, List)
    ;   findall(Vars-Templ, Goal, Answers),
        (   ground(Answers)
        ->  sort(Answers, Sorted),
            '$pick'(Sorted, Vars, List)
        ;   '$bind_bagof_keys'(Answers, _),
            sort(Answers, Sorted),
            '$pick'(Sorted, Vars, Listu),
            sort(Listu, List)
        )
    ).

% '$bag_free_vars'(+Templ, +Goal0, -Goal, -Vars): Goal is Goal0 without its leading V^ prefixes;
% Vars is v(X1, ..., Xn), the free variables of Goal (in order of first occurrence) that occur neither
% in Templ nor in a V of those prefixes.
'$bag_free_vars'(Templ, Goal0, Goal, Vars) :-
    '$strip_carets'(Goal0, Goal, Templ, Bound),
    term_variables(Bound, BoundVars),
    term_variables(Goal, GoalVars),
    '$vars_subtract'(GoalVars, BoundVars, Free),
    Vars =.. [v|Free].

% '$strip_carets'(+Goal0, -Goal, +Bound0, -Bound): removes V^ prefixes, collecting each V into Bound.
'$strip_carets'(Goal0, Goal, Bound0, Bound) :-
    (   nonvar(Goal0), Goal0 = V^G
    ->  '$strip_carets'(G, Goal, Bound0-V, Bound)
    ;   Goal = Goal0,
        Bound = Bound0
    ).

% '$vars_subtract'(+Vars, +Remove, -Rest): the variables of Vars that are not (==) in Remove.
'$vars_subtract'([], _, []).
'$vars_subtract'([V|Vs], Remove, Rest) :-
    (   '$var_memberchk'(V, Remove)
    ->  Rest = Rest1
    ;   Rest = [V|Rest1]
    ),
    '$vars_subtract'(Vs, Remove, Rest1).

% '$var_memberchk'(@Var, +Vars): Var is identical (==) to an element of Vars.
'$var_memberchk'(V, [H|T]) :-
    (   V == H
    ->  true
    ;   '$var_memberchk'(V, T)
    ).

% '$bind_bagof_keys'(+Pairs, ?Dict): unifies the variables of every witness W (of W-T in Pairs), in
% order, with the first variables of the partial list Dict, so witnesses that are variants become
% identical (SWI's canonical binding of the witnesses).
'$bind_bagof_keys'([], _).
'$bind_bagof_keys'([W-_|WTs], Dict) :-
    term_variables(W, Vs),
    '$prefix_of'(Vs, Dict),
    '$bind_bagof_keys'(WTs, Dict).

% '$prefix_of'(?Prefix, ?List): List starts with Prefix.
'$prefix_of'([], _).
'$prefix_of'([X|Xs], [X|Ys]) :-
    '$prefix_of'(Xs, Ys).

% '$pick'(+SortedPairs, ?Vars, -Bag): enumerates the bags of consecutive identical witnesses, binding
% Vars to the witness of each.
'$pick'(Bags, Vars1, Bag1) :-
    '$pick_first'(Bags, Vars0, Bag0, RestBags),
    '$select_bag'(RestBags, Vars0, Bag0, Vars1, Bag1).

% '$select_bag'(+RestBags, +Vars0, +Bag0, ?Vars, -Bag): this bag, then (on backtracking) the others.
'$select_bag'([], Vars0, Bag0, Vars1, Bag1) :-
    !,
    Vars0 = Vars1,
    Bag0 = Bag1.
'$select_bag'(_, Vars, Bag, Vars, Bag).
'$select_bag'(RestBags, _, _, Vars1, Bag1) :-
    '$pick'(RestBags, Vars1, Bag1).

% '$pick_first'(+Pairs, -Vars, -Bag, -Rest): the first bag of Pairs and the pairs after it.
'$pick_first'([Vars-Templ|T0], Vars, [Templ|T], RestBag) :-
    '$pick_same'(T0, Vars, T, RestBag).

% '$pick_same'(+Pairs, +Vars, -Templs, -Rest): the leading pairs whose witness is identical to Vars.
'$pick_same'([V-H|T0], Vars, [H|T], Bag) :-
    V == Vars,
    !,
    '$pick_same'(T0, Vars, T, Bag).
'$pick_same'(Bag, _, [], Bag).

% aggregate_all(+Template, :Goal, -Result): aggregates all solutions of Goal: count (number of
% solutions), sum(E) (sum of E, 0 for none), max(E) / min(E) (largest / smallest value of E; fails for
% none), max(E, W) / min(E, W) (max(Value, Witness) of the first extreme solution), bag(T) (findall),
% set(T) (sorted findall). For bag and set, V^ prefixes of Goal are ignored.
aggregate_all(Template, _, _) :-
    var(Template),
    !,
    throw(error(instantiation_error, _)).
aggregate_all(count, Goal, Count) :-
    !,
    aggregate_all(sum(1), Goal, Count).
aggregate_all(sum(X), Goal, Sum) :-
    !,
    findall(X, Goal, Xs),
    '$aggr_sum'(Xs, 0, Sum).
aggregate_all(max(X), Goal, Max) :-
    !,
    findall(X, Goal, Xs),
    (   Xs = [X0|Rest]
    ->  M0 is max(X0, X0),
        '$aggr_max'(Rest, M0, Max)
    ;   nonvar(X),
        Max = X
    ).
aggregate_all(min(X), Goal, Min) :-
    !,
    findall(X, Goal, Xs),
    (   Xs = [X0|Rest]
    ->  M0 is min(X0, X0),
        '$aggr_min'(Rest, M0, Min)
    ;   nonvar(X),
        Min = X
    ).
aggregate_all(max(X, W), Goal, max(Max, Witness)) :-
    !,
    findall(X-W, Goal, Pairs),
    Pairs = [X0-W0|Rest],
    (   number(X0)
    ->  '$aggr_max_witness'(Rest, X0, W0, Max, Witness)
    ;   throw(error(type_error(number, X0), _))
    ).
aggregate_all(min(X, W), Goal, min(Min, Witness)) :-
    !,
    findall(X-W, Goal, Pairs),
    Pairs = [X0-W0|Rest],
    (   number(X0)
    ->  '$aggr_min_witness'(Rest, X0, W0, Min, Witness)
    ;   throw(error(type_error(number, X0), _))
    ).
aggregate_all(bag(X), Goal0, Bag) :-
    !,
    '$strip_carets'(Goal0, Goal, x, _),
    findall(X, Goal, Bag0),
    Bag = Bag0.
aggregate_all(set(X), Goal0, Set) :-
    !,
    '$strip_carets'(Goal0, Goal, x, _),
    findall(X, Goal, Bag),
    sort(Bag, Set0),
    Set = Set0.
aggregate_all(Template, Goal0, _) :-
    (   Template = max(X, _)
    ;   Template = min(X, _)
    ),
    !,
    '$strip_carets'(Goal0, Goal, x, _),     % the result is not max(_, _) / min(_, _): fail,
    findall(V, (call(Goal), V is X), _),    % after the evaluation errors SWI would raise
    fail.
aggregate_all(Template, _, _) :-
    (   ( atom(Template) ; compound(Template) )
    ->  throw(error(domain_error(aggregate_template, Template), _))
    ;   throw(error(type_error(aggregate_template, Template), _))
    ).

% '$aggr_sum'(+Values, +Sum0, -Sum): Sum is Sum0 plus the values (evaluated one by one).
'$aggr_sum'([], Sum, Sum).
'$aggr_sum'([X|Xs], Sum0, Sum) :-
    Sum1 is Sum0 + X,
    '$aggr_sum'(Xs, Sum1, Sum).

% '$aggr_max'(+Values, +Max0, -Max): Max is max/2 of Max0 and the values.
'$aggr_max'([], Max, Max).
'$aggr_max'([X|Xs], Max0, Max) :-
    Max1 is max(Max0, X),
    '$aggr_max'(Xs, Max1, Max).

% '$aggr_min'(+Values, +Min0, -Min): Min is min/2 of Min0 and the values.
'$aggr_min'([], Min, Min).
'$aggr_min'([X|Xs], Min0, Min) :-
    Min1 is min(Min0, X),
    '$aggr_min'(Xs, Min1, Min).

% '$aggr_max_witness'(+Pairs, +Max0, +W0, -Max, -W): the first pair with the largest value.
'$aggr_max_witness'([], Max, W, Max, W).
'$aggr_max_witness'([X-W|T], Max0, W0, Max, Wmax) :-
    (   X > Max0
    ->  '$aggr_max_witness'(T, X, W, Max, Wmax)
    ;   '$aggr_max_witness'(T, Max0, W0, Max, Wmax)
    ).

% '$aggr_min_witness'(+Pairs, +Min0, +W0, -Min, -W): the first pair with the smallest value.
'$aggr_min_witness'([], Min, W, Min, W).
'$aggr_min_witness'([X-W|T], Min0, W0, Min, Wmin) :-
    (   X < Min0
    ->  '$aggr_min_witness'(T, X, W, Min, Wmin)
    ;   '$aggr_min_witness'(T, Min0, W0, Min, Wmin)
    ).

% ---------------------------------------------------------------------------------------------------
% Atoms
% ---------------------------------------------------------------------------------------------------

% atomic_list_concat(+List, -Atom): Atom is the concatenation of the texts of the atomic elements.
atomic_list_concat(List, Atom) :-
    '$text_list'(List, Kind, Codes, []),
    (   Kind == join
    ->  atom_codes(Atom0, Codes),
        Atom = Atom0
    ;   throw(error(instantiation_error, _))
    ).

% atomic_list_concat(?List, +Separator, ?Atom): joins the elements of List with Separator; when List
% is not a proper list of atomic values, splits Atom at every Separator into a list of atoms.
atomic_list_concat(List, Sep, Atom) :-
    '$text_codes'(Sep, SepCodes),
    '$text_list_sep'(List, SepCodes, Kind, Codes),
    (   Kind == join
    ->  atom_codes(Atom0, Codes),
        Atom = Atom0
    ;   SepCodes == []
    ->  throw(error(domain_error(non_empty_atom, Sep), _))
    ;   var(Atom)
    ->  throw(error(instantiation_error, _))
    ;   atomic(Atom)
    ->  '$text_codes'(Atom, AtomCodes),
        '$split_codes'(AtomCodes, SepCodes, Parts),
        '$codes_atoms'(Parts, Atoms),
        List = Atoms
    ;   throw(error(type_error(atomic, Atom), _))
    ).

% '$text_codes'(@Text, -Codes): the character codes of an atomic term (instantiation or type error
% otherwise).
'$text_codes'(Text, Codes) :-
    (   var(Text)
    ->  throw(error(instantiation_error, _))
    ;   number(Text)
    ->  number_codes(Text, Codes)
    ;   atomic(Text)
    ->  atom_codes(Text, Codes)
    ;   throw(error(type_error(text, Text), _))
    ).

% '$text_list'(@List, -Kind, -Codes, ?Tail): Codes (ending in Tail) are the texts of List's elements
% when Kind = join; Kind = partial when List or an element is unbound (Codes are then meaningless).
'$text_list'(List, Kind, Codes, Tail) :-
    (   var(List)
    ->  Kind = partial
    ;   List == []
    ->  Kind = join,
        Codes = Tail
    ;   List = [E|Es]
    ->  (   var(E)
        ->  Kind = partial
        ;   '$text_codes'(E, ECodes),
            append(ECodes, Codes1, Codes),
            '$text_list'(Es, Kind, Codes1, Tail)
        )
    ;   throw(error(type_error(list, List), _))
    ).

% '$text_list_sep'(@List, +SepCodes, -Kind, -Codes): as '$text_list'/4, with SepCodes between elements.
'$text_list_sep'(List, SepCodes, Kind, Codes) :-
    (   var(List)
    ->  Kind = partial
    ;   List == []
    ->  Kind = join,
        Codes = []
    ;   List = [E|Es]
    ->  (   var(E)
        ->  Kind = partial
        ;   '$text_codes'(E, ECodes),
            append(ECodes, Codes1, Codes),
            '$text_list_sep_'(Es, SepCodes, Kind, Codes1)
        )
    ;   throw(error(type_error(list, List), _))
    ).

% '$text_list_sep_'(@Tail, +SepCodes, -Kind, -Codes): the elements after the first, each preceded by
% the separator.
'$text_list_sep_'(List, SepCodes, Kind, Codes) :-
    (   var(List)
    ->  Kind = partial
    ;   List == []
    ->  Kind = join,
        Codes = []
    ;   List = [E|Es]
    ->  (   var(E)
        ->  Kind = partial
        ;   '$text_codes'(E, ECodes),
            append(SepCodes, Codes1, Codes),
            append(ECodes, Codes2, Codes1),
            '$text_list_sep_'(Es, SepCodes, Kind, Codes2)
        )
    ;   throw(error(type_error(list, List), _))
    ).

% '$split_codes'(+Codes, +Sep, -Parts): Codes cut at every occurrence of the non-empty Sep.
'$split_codes'(Codes, Sep, [Part|Parts]) :-
    (   append(Part, Rest0, Codes),
        append(Sep, Rest, Rest0)
    ->  '$split_codes'(Rest, Sep, Parts)
    ;   Part = Codes,
        Parts = []
    ).

% '$codes_atoms'(+CodeLists, -Atoms): atom_codes/2 over a list.
'$codes_atoms'([], []).
'$codes_atoms'([C|Cs], [A|As]) :-
    atom_codes(A, C),
    '$codes_atoms'(Cs, As).

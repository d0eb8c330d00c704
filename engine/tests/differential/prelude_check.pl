/*  Static check of the prelude (engine/src/solve/prelude.pl):

        swipl prelude_check.pl -- PRELUDE.pl

    - every clause is a fact or a rule (no directive);
    - every goal in a clause body (looking through the control constructs and the goal arguments of
      the meta-predicates below) is a control construct of the machine, a native built-in of our
      engine, or a predicate the prelude defines;
    - every predicate that is not part of the library (public/1 below) has a name starting with '$';
    - every public predicate of the library is defined.
    Prints the problems and exits with status 1 if there are any, else prints a summary.
*/

:- initialization(main, main).

% Control constructs handled by the solver machine.
control((_, _)).
control((_ ; _)).
control((_ -> _)).
control((_ *-> _)).
control(\+ _).
control(not(_)).
control(call(_)).
control(call(_, _)).
control(call(_, _, _)).
control(call(_, _, _, _)).
control(call(_, _, _, _, _)).
control(call(_, _, _, _, _, _)).
control(call(_, _, _, _, _, _, _)).
control(call(_, _, _, _, _, _, _, _)).
control(!).
control(true).
control(fail).
control(false).
control(catch(_, _, _)).
control(throw(_)).
control(findall(_, _, _)).
control(findall(_, _, _, _)).

% Goal arguments of the control constructs and meta-predicates, for the walk.
goal_args((A, B), [A, B]).
goal_args((A ; B), [A, B]).
goal_args((A -> B), [A, B]).
goal_args((A *-> B), [A, B]).
goal_args(\+ A, [A]).
goal_args(not(A), [A]).
goal_args(call(A), [A]).
goal_args(catch(A, _, B), [A, B]).
goal_args(findall(_, A, _), [A]).
goal_args(findall(_, A, _, _), [A]).

% The native built-ins of the engine (written in Rust) that the prelude may call.
native(Name/Arity) :-
    memberchk(Name/Arity, [
        (is)/2, (=:=)/2, (=\=)/2, (<)/2, (>)/2, (=<)/2, (>=)/2, between/3, succ/2, plus/3,
        var/1, nonvar/1, atom/1, number/1, integer/1, float/1, atomic/1, compound/1, is_list/1,
        ground/1,
        (=)/2, (\=)/2, (==)/2, (\==)/2, (@<)/2, (@>)/2, (@=<)/2, (@>=)/2, compare/3,
        functor/3, arg/3, (=..)/2, copy_term/2, term_variables/2,
        atom_codes/2, atom_chars/2, atom_length/2, atom_number/2, number_codes/2, atom_concat/3,
        sub_atom/5, term_to_atom/2,
        msort/2, sort/2, sort/4, keysort/2, length/2, sum_list/2, sumlist/2, max_list/2,
        min_list/2, numlist/3, memberchk/2, list_to_set/2, maxmember/2, minmember/2, getsubset/2
    ]).

% The library predicates the prelude provides (docs/semantics.md §8 and docs/builtins.md).
public(P) :-
    member(P, [
        once/1, ignore/1, forall/2,
        member/2, append/3, append/2, nth0/3, nth1/3, last/2, reverse/2, select/3, selectchk/3,
        permutation/2, delete/3, subtract/3, intersection/3, union/3, max_member/2, min_member/2,
        predsort/3,
        include/3, exclude/3, partition/4, maplist/2, maplist/3, maplist/4, maplist/5,
        foldl/4, foldl/5, foldl/6,
        bagof/3, setof/3, aggregate_all/3,
        atomic_list_concat/2, atomic_list_concat/3
    ]).

main :-
    current_prolog_flag(argv, [File]),
    read_clauses(File, Clauses),
    findall(PI, (member(C, Clauses), clause_head(C, H), functor(H, N, A), PI = N/A), PIs0),
    sort(PIs0, Defined),
    findall(Problem, problem(Clauses, Defined, Problem), Problems0),
    sort(Problems0, Problems),
    (   Problems == []
    ->  length(Clauses, NC),
        length(Defined, ND),
        include([P]>>once(public(P)), Defined, Pub),
        length(Pub, NP),
        format("prelude ok: ~w clauses, ~w predicates (~w public)~n", [NC, ND, NP])
    ;   forall(member(P, Problems), format("prelude: ~w~n", [P])),
        halt(1)
    ).

read_clauses(File, Clauses) :-
    setup_call_cleanup(open(File, read, S), read_all(S, Clauses), close(S)).

read_all(S, Clauses) :-
    read_term(S, T, []),
    (   T == end_of_file
    ->  Clauses = []
    ;   Clauses = [T|Cs],
        read_all(S, Cs)
    ).

clause_head((H :- _), H) :- !.
clause_head(H, H).

problem(Clauses, _, directive(D)) :-
    member((:- D), Clauses).
problem(Clauses, Defined, undefined_call(N/A, in(Caller))) :-
    member((H :- B), Clauses),
    functor(H, HN, HA),
    Caller = HN/HA,
    body_goal(B, G),
    functor(G, N, A),
    \+ allowed(N/A, G, Defined).
problem(_, Defined, not_dollar(N/A)) :-
    member(N/A, Defined),
    \+ public(N/A),
    \+ sub_atom(N, 0, 1, _, $).
problem(_, Defined, missing_public(P)) :-
    public(P),
    \+ memberchk(P, Defined).

allowed(_, G, _) :- control(G), !.
allowed(PI, _, _) :- native(PI), !.
allowed(PI, _, Defined) :- memberchk(PI, Defined).

%   body_goal(+Body, -Goal): every goal in Body (variables, i.e. meta-calls, are skipped).
body_goal(B, _) :-
    var(B),
    !,
    fail.
body_goal(B, G) :-
    (   G = B
    ;   goal_args(B, Args),
        member(A, Args),
        body_goal(A, G)
    ).

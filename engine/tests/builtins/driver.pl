% Reference driver for swipl/tests/it/builtins_vs_swipl.rs (run by that test with SWI-Prolog 9).
% Reads the case file given as the first argument; for every goal line prints
%   CASE <line>
%   GOAL <write_canonical of Goal-Vars>
%   RES  <write_canonical of r(Solutions, Outcome)>
% Solutions: the values of the goal's named variables for each solution (at most 8);
% Outcome: ok (no more solutions), more (stopped at 8) or error(Formal) (the formal part of error/2).
:- initialization(main, main).

main :-
    current_prolog_flag(argv, [File|_]),
    open(File, read, In, [encoding(utf8)]),
    set_stream(user_output, encoding(utf8)),
    lines(In),
    close(In).

lines(In) :-
    read_line_to_string(In, L),
    (   L == end_of_file -> true
    ;   ( skip_line(L) -> true ; one(L) ),
        lines(In)
    ).

skip_line(L) :- split_string(L, "", " \t", [S]), ( S == "" ; sub_string(S, 0, 1, _, "%") ).

one(L) :-
    format("CASE ~s~n", [L]),
    catch(term_string(G, L, [variable_names(Bs)]), E, true),
    (   nonvar(E) -> format("GOAL syntax_error~nRES syntax_error~n")
    ;   maplist(arg(2), Bs, Vs),
        write('GOAL '), write_canonical(G-Vs), nl,
        run(G, Vs, R),
        write('RES '), write_canonical(R), nl
    ).

run(G, Vs, r(Sols, Out)) :-
    S = s([], 0, ok),
    catch(( call(G),
            arg(1, S, A), nb_setarg(1, S, [Vs|A]),
            arg(2, S, N0), N is N0+1, nb_setarg(2, S, N),
            N >= 8
          -> nb_setarg(3, S, more)
          ;  true
          ),
          Ball,
          ( Ball = error(F, _) -> nb_setarg(3, S, error(F)) ; nb_setarg(3, S, throw(Ball)) )),
    arg(1, S, Rev), reverse(Rev, Sols), arg(3, S, Out).

% writer helpers: the text written by writeq/1 and write_canonical/1, as an atom
wq(T, A) :- with_output_to(string(S), writeq(T)), atom_string(A, S).
wc(T, A) :- with_output_to(string(S), write_canonical(T)), atom_string(A, S).

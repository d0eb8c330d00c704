/*  SWI-Prolog side of the differential test of the sidl logic engine.

    Usage:
        swipl swi_runner.pl -- [--prelude PRELUDE.pl] [--programs DIR] [--cap N] [--timing] FILE...

    (the `--` keeps swipl from loading .pl arguments as scripts)

    Each FILE (or `-` for standard input) is a corpus file: one query per line, `%` comment lines and
    blank lines ignored. A query line is

        [@prog1,prog2: ]Goal.

    where the optional prefix names programs DIR/prog1.pl, DIR/prog2.pl whose clauses are loaded for
    the query (all queries with the same program list share one module). For every query the runner
    prints one block:

        === ID                 ID = <file name without extension>:<line number> (`stdin:<line>`)
        [B1,...,Bn]            one line per answer: write_canonical/1 of the list of the bindings of
        ...                    the query's named variables, in order of first occurrence
        TERMINATOR

    where TERMINATOR is one of
        end                    no more answers (so `false` is a block with no answer line)
        more                   CAP answers were printed and there is at least one more
        error FORMAL           the query raised error(FORMAL, _) (module qualifiers of our modules
                               stripped); answers printed before it are kept
        throw BALL             the query raised BALL, which is not error(_, _)
        syntax                 the query text does not parse
        limit                  the inference or time limit was exceeded (a corpus bug)

    --timing prints the queries that take more than 0.2 s to standard error.

    Modes:
      - default: the reference. Queries run in a module that inherits from `user`, so SWI-Prolog's own
        library (autoloaded) answers; sidl_lib.pl supplies the SIDL-only built-ins SWI lacks.
      - --prelude FILE: the prelude under test. Its clauses are loaded into every query module (which
        inherits only from `system`, with autoloading off); the SWI natives that stand for our native
        built-ins are imported explicitly. A prelude predicate that a program defines is left out, as
        in the engine. Comparing both modes' output checks the prelude against SWI's library.
*/

:- module(swi_runner, []).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(readutil)).
:- use_module(library(time)).
:- use_module(library(option)).

:- initialization(main, main).

:- dynamic opt/2, query_module/2, prelude_clauses/1.

% The natives of our engine that SWI defines in a library rather than in `system`: imported into the
% prelude-mode modules.
library_native(lists, [sum_list/2, max_list/2, min_list/2, numlist/3, list_to_set/2]).

default_cap(50).
inference_limit(200000000).
time_limit(60).

main :-
    current_prolog_flag(argv, Argv),
    parse_args(Argv, Files),
    (   Files == []
    ->  format(user_error, "usage: swipl swi_runner.pl -- [--prelude F] [--programs DIR] [--cap N] [--timing] FILE...~n", []),
        halt(2)
    ;   true
    ),
    (   opt(prelude, Prelude)
    ->  load_prelude(Prelude)
    ;   true
    ),
    sidl_lib_file(Lib),
    user:use_module(Lib),
    forall(member(F, Files), run_file(F)),
    flush_output.

parse_args([], []).
parse_args(['--prelude', F|T], Fs) :- !, assertz(opt(prelude, F)), parse_args(T, Fs).
parse_args(['--programs', D|T], Fs) :- !, assertz(opt(programs, D)), parse_args(T, Fs).
parse_args(['--timing'|T], Fs) :- !, assertz(opt(timing, true)), parse_args(T, Fs).
parse_args(['--cap', N|T], Fs) :- !, atom_number(N, C), assertz(opt(cap, C)), parse_args(T, Fs).
parse_args([F|T], [F|Fs]) :- parse_args(T, Fs).

sidl_lib_file(Lib) :-
    source_file(swi_runner:main, Me),
    file_directory_name(Me, Dir),
    directory_file_path(Dir, 'sidl_lib.pl', Lib).

cap(C) :- ( opt(cap, C) -> true ; default_cap(C) ).

%   Reading files

run_file('-') :- !,
    read_lines(user_input, Lines),
    run_lines(Lines, stdin, 1).
run_file(File) :-
    file_base_name(File, Base),
    file_name_extension(Stem, _, Base),
    setup_call_cleanup(open(File, read, S, [encoding(utf8)]), read_lines(S, Lines), close(S)),
    run_lines(Lines, Stem, 1).

read_lines(S, Lines) :-
    read_line_to_string(S, L),
    (   L == end_of_file
    ->  Lines = []
    ;   Lines = [L|Ls],
        read_lines(S, Ls)
    ).

run_lines([], _, _).
run_lines([L|Ls], Stem, N) :-
    normalize_space(string(T), L),
    (   ( T == "" ; sub_string(T, 0, 1, _, "%") )
    ->  true
    ;   format("=== ~w:~w~n", [Stem, N]),
        split_query(L, Programs, GoalText),
        get_time(T0),
        run_query(Programs, GoalText),
        get_time(T1),
        Dt is T1 - T0,
        (   opt(timing, true), Dt > 0.2
        ->  format(user_error, "~3f s  ~w:~w  ~s~n", [Dt, Stem, N, L])
        ;   true
        )
    ),
    flush_output,
    N1 is N + 1,
    run_lines(Ls, Stem, N1).

%!  split_query(+Line, -Programs, -GoalText)
%   `@a,b: Goal.` gives [a,b] and "Goal."; a line without `@` gives [].
split_query(Line0, Programs, Goal) :-
    split_string(Line0, "", " \t", [Line]),
    (   sub_string(Line, 0, 1, _, "@"),
        sub_string(Line, B, 1, _, ":")
    ->  L is B - 1,
        sub_string(Line, 1, L, _, Names),
        B1 is B + 1,
        sub_string(Line, B1, _, 0, Goal),
        split_string(Names, ",", " ", Parts),
        maplist(string_atom, Parts, Programs)
    ;   Programs = [],
        Goal = Line
    ).

string_atom(S, A) :-
    atom_string(A, S).

%   Modules: one per program list and mode

module_for(Programs, M) :-
    query_module(Programs, M),
    !.
module_for(Programs, M) :-
    atomic_list_concat(Programs, '+', Key),
    (   opt(prelude, _)
    ->  atom_concat(p_, Key, M)
    ;   atom_concat(s_, Key, M)
    ),
    load_programs(Programs, Clauses),
    (   opt(prelude, _)
    ->  setup_prelude_module(M, Clauses)
    ;   setup_reference_module(M, Clauses)
    ),
    assertz(query_module(Programs, M)).

load_programs([], []).
load_programs([P|Ps], Clauses) :-
    (   opt(programs, Dir) -> true ; Dir = '.' ),
    atomic_list_concat([Dir, '/', P, '.pl'], File),
    read_clauses(File, C1),
    load_programs(Ps, C2),
    append(C1, C2, Clauses).

read_clauses(File, Clauses) :-
    setup_call_cleanup(open(File, read, S, [encoding(utf8)]), read_all(S, Clauses), close(S)).

read_all(S, Clauses) :-
    read_term(S, T, []),
    (   T == end_of_file
    ->  Clauses = []
    ;   T = (:- _)
    ->  format(user_error, "directive in a test program: ~q~n", [T]),
        halt(3)
    ;   Clauses = [T|Cs],
        read_all(S, Cs)
    ).

clause_pi((H :- _), N/A) :- !, functor(H, N, A).
clause_pi(H, N/A) :- functor(H, N, A).

setup_reference_module(M, Clauses) :-
    set_module(M:class(user)),
    add_clauses(M, Clauses).

setup_prelude_module(M, Clauses) :-
    set_module(M:class(user)),
    set_module(M:base(system)),
    forall(library_native(L, PIs), M:use_module(library(L), PIs)),
    M:use_module(library(backcomp), [sumlist/2]),
    sidl_lib_file(Lib),
    M:use_module(Lib),
    maplist(clause_pi, Clauses, ProgramPIs0),
    sort(ProgramPIs0, ProgramPIs),
    prelude_clauses(Prelude),
    exclude(defined_in(ProgramPIs), Prelude, Kept),
    maplist(clause_pi, Kept, KeptPIs0),
    sort(KeptPIs0, KeptPIs),
    forall(( member(N/A, KeptPIs), current_predicate(system:N/A), functor(H, N, A) ),
           M:redefine_system_predicate(H)),
    append(Kept, Clauses, All),
    add_clauses(M, All),
    set_prolog_flag(autoload, false).

defined_in(PIs, Clause) :-
    clause_pi(Clause, PI),
    memberchk(PI, PIs).

add_clauses(M, Clauses) :-
    forall(member(C, Clauses), assertz(M:C)),
    maplist(clause_pi, Clauses, PIs0),
    sort(PIs0, PIs),
    (   PIs == [] -> true ; M:compile_predicates(PIs) ).

load_prelude(File) :-
    read_clauses(File, Clauses),
    assertz(prelude_clauses(Clauses)).

%   Running one query

run_query(Programs, GoalText) :-
    catch(term_string(Goal, GoalText, [variable_names(Bindings)]), _, fail),
    !,
    module_for(Programs, M),
    binding_values(Bindings, Vars),
    cap(Cap),
    inference_limit(IL),
    time_limit(TL),
    State = count(0),
    catch(( call_with_time_limit(TL,
                call_with_inference_limit(solve(M, Goal, Vars, State, Cap), IL, R)),
            (   R == inference_limit_exceeded
            ->  format("limit~n")
            ;   true
            )
          ),
          E,
          print_exception(E)).
run_query(_, _) :-
    format("syntax~n").

binding_values([], []).
binding_values([_=V|T], [V|Vs]) :- binding_values(T, Vs).

solve(M, Goal, Vars, State, Cap) :-
    M:Goal,
    arg(1, State, N0),
    N is N0 + 1,
    nb_setarg(1, State, N),
    (   N > Cap
    ->  !,
        format("more~n")
    ;   strip_modules(answer, Vars, Vars1),
        with_output_to(string(S), write_canonical(Vars1)),
        format("~s~n", [S]),
        fail
    ).
solve(_, _, _, _, _) :-
    format("end~n").

print_exception(time_limit_exceeded) :-
    !,
    format("limit~n").
print_exception(E) :-
    strip_modules(error, E, E1),
    (   nonvar(E1), E1 = error(Formal, _)
    ->  with_output_to(string(S), write_canonical(Formal)),
        format("error ~s~n", [S])
    ;   with_output_to(string(S), write_canonical(E1)),
        format("throw ~s~n", [S])
    ).

%!  strip_modules(+Where, +T0, -T)
%   Removes the module qualifiers `M:` where M is one of our query modules (in answers and errors) or
%   a module SWI adds to culprits (user, system; in errors only): our engine has no modules.
strip_modules(_, T, T) :-
    var(T),
    !.
strip_modules(W, M:T0, T) :-
    atom(M),
    our_module(W, M),
    !,
    strip_modules(W, T0, T).
strip_modules(W, T0, T) :-
    compound(T0),
    !,
    compound_name_arguments(T0, N, As0),
    maplist(strip_modules(W), As0, As),
    compound_name_arguments(T, N, As).
strip_modules(_, T, T).

our_module(_, M) :- query_module(_, M), !.
our_module(error, user).
our_module(error, system).

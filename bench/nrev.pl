% Naive reverse of a 30-element list, 20,000 times (496 logical inferences each).
% Standard Prolog: runs unchanged in sidl and in SWI-Prolog (scripts/bench-logic.sh).
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).
range(N, N, [N]) :- !.
range(I, N, [I|T]) :- I1 is I + 1, range(I1, N, T).
loop(0, _) :- !.
loop(N, L) :- nrev(L, _), N1 is N - 1, loop(N1, L).
bench :- range(1, 30, L), loop(20000, L).

/*  Reference definitions, for the SWI-Prolog side of the differential test, of the SIDL built-ins that
    SWI-Prolog lacks (docs/semantics.md §8, docs/builtins.md). Our engine implements them natively;
    these definitions state the specified behaviour in Prolog so that the native versions are checked.
*/

:- module(sidl_lib, [maxmember/2, minmember/2, getsubset/2]).

:- use_module(library(lists), [append/3]).

%!  maxmember(+List, -Max)
%   Max is the arithmetically largest element of List (the element itself, not its value; the first
%   of several equal ones). Fails on []. Elements are compared with the arithmetic comparison, so a
%   non-number raises its evaluation error.
maxmember([H|T], Max) :-
    maxmember_(T, H, Max).

maxmember_([], Max, Max).
maxmember_([H|T], Max0, Max) :-
    (   H > Max0
    ->  maxmember_(T, H, Max)
    ;   maxmember_(T, Max0, Max)
    ).

%!  minmember(+List, -Min)
%   As maxmember/2 for the arithmetically smallest element.
minmember([H|T], Min) :-
    minmember_(T, H, Min).

minmember_([], Min, Min).
minmember_([H|T], Min0, Min) :-
    (   H < Min0
    ->  minmember_(T, H, Min)
    ;   minmember_(T, Min0, Min)
    ).

%!  getsubset(?Sub, +Set)
%   Every subset of Set: [] first, then by increasing size, each size in colexicographic order of
%   positions, elements in Set's order (for [a,b,c]: [] [a] [b] [c] [a,b] [a,c] [b,c] [a,b,c]).
getsubset(Sub, Set) :-
    length(Set, N),
    between(0, N, K),
    colex(K, Set, Sub0),
    Sub = Sub0.

%   colex(+K, +Prefix, -Sub): the K-element subsets of Prefix in colexicographic order: those of the
%   prefix without its last element, then those that contain the last element.
colex(0, _, []) :- !.
colex(K, Prefix, Sub) :-
    length(Prefix, N),
    N >= K,
    append(Init, [Last], Prefix),
    (   colex(K, Init, Sub)
    ;   K1 is K - 1,
        colex(K1, Init, Sub0),
        append(Sub0, [Last], Sub)
    ).

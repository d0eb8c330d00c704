% Uncaught ISO errors and other balls: the diagnostic points at the clause of the program that
% raised the error (or called the library predicate that did) and labels each calling clause.
%? caller(X)
caller(X) :- middle(X), X > 0.   %@ `caller/1` calls `middle/1`
middle(X) :- price(X), X < 100.   %@ `middle/1` calls `price/1`
price(X) :- X is 10 + tax.   %! E0921
%? unbound(X)
unbound(X) :- X > 0.   %! E0920
%? negative(L)
negative(L) :- length(L, -1).   %! E0922
%? unknown
unknown :- no_such_predicate(1).   %! E0923
%? divide(X)
divide(X) :- X is 1 // 0.   %! E0925
%? oops
oops :- throw(oops).   %! E0930
%? in_library(X)
in_library(X) :- nth0(foo, [a], X).   %! E0921

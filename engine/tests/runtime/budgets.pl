% The four budgets (the test runs every goal with small limits). `%? GOAL` is a goal to run;
% `%! CODE` marks the line of the clause the error's diagnostic points at, `%@ MESSAGE` a label.
%? forever(0)
forever(N) :- N1 is N + 1, forever(N1).   %! E0910
%? grow([])
grow(L) :- grow([x, y | L]).   %! E0911
%? open(0)
open(N) :- member(_, [a, b]), N1 is N + 1, open(N1).   %! E0912
%? deep(0)
deep(N) :- N1 is N + 1, deep(N1), N1 > 0.   %! E0913

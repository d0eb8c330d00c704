% Test program for `sidl query`.
parent(tom, bob).
parent(tom, liz).
parent(bob, ann).
grandparent(G, C) :- parent(G, P), parent(P, C).
len([], 0).
len([_|T], N) :- len(T, N0), N is N0 + 1.
boom(X) :- helper(X), true.
helper(X) :- Y is X + foo, Y > 0.
loop :- loop.

% A family database (facts in a fixed order; the answers' order is part of the test).
parent(tom, bob).
parent(tom, liz).
parent(pam, bob).
parent(bob, ann).
parent(bob, pat).
parent(pat, jim).
parent(liz, joe).
parent(ann, kim).

male(tom).
male(bob).
male(jim).
male(joe).
female(pam).
female(liz).
female(ann).
female(pat).
female(kim).

age(tom, 80).
age(pam, 78).
age(bob, 55).
age(liz, 52).
age(ann, 30).
age(pat, 28).
age(jim, 5).
age(joe, 20).
age(kim, 2).

father(F, C) :- parent(F, C), male(F).
mother(M, C) :- parent(M, C), female(M).
grandparent(G, C) :- parent(G, P), parent(P, C).
sibling(X, Y) :- parent(P, X), parent(P, Y), X \== Y.
ancestor(A, D) :- parent(A, D).
ancestor(A, D) :- parent(A, X), ancestor(X, D).
descendant(D, A) :- ancestor(A, D).
has_child(X) :- parent(X, _).
childless(X) :- (male(X) ; female(X)), \+ parent(X, _).
older(X, Y) :- age(X, AX), age(Y, AY), AX > AY.

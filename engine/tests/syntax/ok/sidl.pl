% Clauses in the style of SIDL games (one per line, as a game author writes them).
%= name(nim)
name(nim).
%= init([alice,10])
init([alice, 10]).
%= init([alice],0.0)
init([alice], 0.0).
%= :-(legal([main]),','(fact([_,A]),>(A,0)))
legal([main]) :- fact([_, I]), I > 0.
%= :-(switch([main],[A]),','(fact([_,B]),','(is(C,min(B,3)),between(1,C,A))))
switch([main], [T]) :- fact([_, I]), M is min(I, 3), between(1, M, T).
%= :-(owned([main],[A]),fact([A,_]))
owned([main], [A]) :- fact([A, _]).
%= default([main],[1])
default([main], [1]).
%= :-(do([A]),','(fact([B,C]),','(is(D,-(C,A)),','(player([E]),','(not(=(B,E)),','(delete([B,C]),create([E,D])))))))
do([T]) :- fact([A, I]), NI is I - T, player([B]), not(A = B), delete([A, I]), create([B, NI]).
%= :-(payoff([A],-1.0),','(tocreate([B,0]),\+(=(A,B))))
payoff([A], -1.0) :- tocreate([B, 0]), \+ A = B.
%= :-(owned([dirt],equal(A)),','(children(B),','(length(B,C),is(A,-(^(2,C),1)))))
owned([dirt], equal(N)) :- children(Cs), length(Cs, L), N is (2^L)-1.
%= :-(unlimited([A],[A,','(price,double)]),player([A]))
unlimited([A], [A, (price, double)]) :- player([A]).
%= :-(leadingprice(A),','(fact([bid,_,A]),','(findall(B,fact([bid,_,B]),C),maxmember(C,A))))
leadingprice(B) :- fact([bid, _, B]), findall(P, fact([bid, _, P]), Ps), maxmember(Ps, B).
%= directions(rook,[[1,0],[0,1],[-1,0],[0,-1]])
directions(rook, [[1, 0], [0, 1], [-1, 0], [0, -1]]).
%= :-(position(knight,A,B),','(member(A,[-2,2]),member(B,[-1,1])))
position(knight, X, Y) :- member(X, [-2, 2]), member(Y, [-1, 1]).
%= :-(yvalue(A,B,C),','(is(B,+(A,C)),yvalue(B)))
yvalue(Pre, Next, Inc) :- Next is Pre + Inc, yvalue(Next).
%= :-(switch([A],[A,pawn,B,C,B,D]),','(yvalue(C,D,*(_,2)),\+(fact([_,_,B,D]))))
switch([C], [C, pawn, X, Y, X, Y2]) :- yvalue(Y, Y2, I * 2), \+ fact([_, _, X, Y2]).
%= :-(p(A),','(;(->(>(A,0),=(B,pos)),;(->(<(A,0),=(B,neg)),=(B,zero))),q(B)))
p(X) :- ( X > 0 -> Y = pos ; X < 0 -> Y = neg ; Y = zero ), q(Y).
%= :-(p(A),','(forall(member(B,A),@<(B,z)),setof(-(C,D),^(E,member(-(-(C,D),E),A)),_)))
p(X) :- forall(member(Y, X), Y @< z), setof(K-V, Z^member(K-V-Z, X), _).
%= :-(p,catch(g,error(type_error(A,B),_),','(print(A),print(B))))
p :- catch(g, error(type_error(T, V), _), (print(T), print(V))).
%= :-(p(A),maplist(>>([B,C],is(C,*(B,2))),A,_))
p(L) :- maplist([X, Y]>>(Y is X * 2), L, _).
%= :-(p,','(=(_,"a string"),','(sub_atom(abc,_,2,A,_),atom_codes(A,"xyz"))))
p :- X = "a string", sub_atom(abc, B, 2, A, Sub), atom_codes(A, "xyz").
%= :-(p,','(=(A,f(B)),','(=..(A,[C|_]),','(functor(A,C,_),arg(1,A,B)))))
p :- X = f(Y), X =.. [F | Args], functor(X, F, N), arg(1, X, Y).

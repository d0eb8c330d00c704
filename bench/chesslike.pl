% A chess-like rule workload: the move generator of the SIDL paper's chess game (the same rules as
% games/paper/chess.sidl) over the initial position, with the state's facts as f/1 clauses instead of
% the game manager's fact/1. bench/0 generates all moves of both colours 300 times.
% Standard Prolog: runs unchanged in sidl and in SWI-Prolog (scripts/bench-logic.sh).
opposite(white, black).
opposite(black, white).
xaxis([a,b,c,d,e,f,g,h]).
direction(white, 1).
direction(black, -1).
forpromotion([queen, knight, rook, bishop]).
directions(rook, [[1, 0], [0, 1], [-1, 0], [0, -1]]).
directions(bishop, [[1, 1], [1, -1], [-1, 1], [-1, -1]]).
directions(queen, A):- directions(rook, R), directions(bishop, B), append(R, B, A).
position(knight, X, Y):- member(X, [-2, 2]), member(Y, [-1, 1]).
position(knight, X, Y):- member(Y, [-2, 2]), member(X, [-1, 1]).
position(king, X, Y):- directions(queen, A), member([X, Y], A).
xvalue(Pre, Next, Inc):- xaxis(Xs), nth1(I, Xs, Pre), II is I + Inc, nth1(II, Xs, Next).
yvalue(Y):- integer(Y), Y < 9, Y > 0.
yvalue(Pre, Next, Inc):- Next is Pre + Inc, yvalue(Next).
row(white, 1, 1).
row(white, 2, 2).
row(black, 8, 1).
row(black, 7, 2).
man(rook, [a, h], 1).
man(knight, [b, g], 1).
man(bishop, [c, f], 1).
man(queen, [d], 1).
man(king, [e], 1).
man(pawn, Xs, 2):- xaxis(Xs).
promote(Color, Y, Man):- opposite(Color, Opp), row(Opp, Y, 1), forpromotion(HMs), member(Man, HMs).
f([Color, Man, X, Y]):- row(Color, Y, Row), man(Man, Xs, Row), member(X, Xs).
f([white]).
f([white, fortifiable]).
f([black, fortifiable]).
contrline(_, X, _, [DX, _], []) :- \+ xvalue(X, _, DX).
contrline(_, _, Y, [_, DY], []) :- \+ yvalue(Y, _, DY).
contrline(Color, X, Y, [DX, DY], []) :- xvalue(X, X1, DX), yvalue(Y, Y1, DY), f([Color, _, X1, Y1]).
contrline(Color, X, Y, [DX, DY], [[X1, Y1]]):-
    xvalue(X, X1, DX), yvalue(Y, Y1, DY), opposite(Color, Opp), f([Opp, _, X1, Y1]).
contrline(Color, X, Y, [DX, DY], [[X1, Y1] | Line]):-
    xvalue(X, X1, DX), yvalue(Y, Y1, DY), \+ f([_, _, X1, Y1]), contrline(Color, X1, Y1, [DX, DY], Line).
controlled(Color, pawn, X, Y, X1, Y1):-
    f([Color, pawn, X, Y]), direction(Color, I), yvalue(Y, Y1, I), member(D, [1, -1]), xvalue(X, X1, D).
controlled(Color, Man, X, Y, X1, Y1):-
    directions(Man, Ds), f([Color, Man, X, Y]), member(D, Ds), contrline(Color, X, Y, D, NP), member([X1, Y1], NP).
controlled(Color, Man, X, Y, X1, Y1):-
    position(Man, DX, DY), f([Color, Man, X, Y]), xvalue(X, X1, DX), yvalue(Y, Y1, DY), \+ f([Color, _, X1, Y1]).
move(Color, [Color, pawn, X, Y, X, Y2]):-
    f([Color, pawn, X, Y]), row(Color, Y, 2), direction(Color, I),
    yvalue(Y, Y2, I * 2), yvalue(Y, Y1, I), \+ f([_, _, X, Y1]), \+ f([_, _, X, Y2]).
move(Color, [Color, pawn, X, Y, X, Y1]):-
    f([Color, pawn, X, Y]), direction(Color, I), yvalue(Y, Y1, I), \+ promote(Color, Y1, _), \+ f([_, _, X, Y1]).
move(Color, [Color, Man, X, Y, X1, Y1]):-
    controlled(Color, Man, X, Y, X1, Y1), \+ Man = pawn, \+ Man = king.
move(Color, [Color, king, X, Y, X1, Y1]):-
    controlled(Color, king, X, Y, X1, Y1), opposite(Color, Opp), \+ controlled(Opp, _, _, _, X1, Y1).
moves(N) :- findall(M, move(white, M), W), findall(M, move(black, M), B), length(W, NW), length(B, NB), N is NW + NB.
loop(0) :- !.
loop(K) :- moves(_), K1 is K - 1, loop(K1).
bench :- loop(300).

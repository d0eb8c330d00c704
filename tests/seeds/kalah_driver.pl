/* Runs the seed's Kalah program (kalah_seed.pl, unchanged) without a terminal: the human's
   moves come from standard input, one term per line, read by the program's own read/1.
   Usage: swipl tests/seeds/kalah_driver.pl MODE < MOVES, MODE one of
     testgame  the seed's test game ("Tesztjáték"): 4 stones, depth 6, the computer first
               (the settings the seed states for it; the listing has 6, 4 and the human
               first, so they are replaced here with abolish/assertz), started with kalah/0;
     special   the seed's special position: its query
               Állás = tábla([1,1,1,1,1,1],23,[16,3,1,1,3,3],16),
               kirajzol(Állás, ember), játék(Állás, ember);
     demo      the seed's two-player trial ("Próba 2 játékosos módban"): 6 stones, both
               players human, with the seed's first lépést_választ/3 (it always asks),
               copied below as demo_lépést_választ/3.
   Like the seed's top level, a failing goal prints "false." (the demo ends with the
   invalid move vége). */
:- initialization(main, main).
:- ensure_loaded(kalah_seed).

main :-
    current_prolog_flag(argv, [Mode]),
    (   run(Mode) -> true ; nl, writeln('false.') ).

run(testgame) :-
    set(kövek_száma(4)), set(előrelátás(6)),
    abolish(alapbeállítás/2),
    assertz((alapbeállítás(Állás, számítógép) :-
                kövek_száma(K),
                Állás = tábla([K,K,K,K,K,K],0,[K,K,K,K,K,K],0))),
    kalah.
run(special) :-
    Állás = tábla([1,1,1,1,1,1],23,[16,3,1,1,3,3],16),
    kirajzol(Állás, ember), játék(Állás, ember).
run(demo) :-
    alapbeállítás(Állás, Játékos),
    kirajzol(Állás, Játékos),
    demo_játék(Állás, Játékos).

set(Fact) :- functor(Fact, N, A), abolish(N/A), assertz(Fact).

% the seed's játék/2 with its first, always asking lépést_választ/3
demo_játék(Állás, Játékos) :-
    játék_vége(Állás, Játékos, Eredmény), !,
    bejelent(Eredmény).
demo_játék(Állás, Játékos) :-
    demo_lépést_választ(Állás, Játékos, Lépés),
    lép(Lépés, Állás, Állás1),
    következő_játékos(Játékos, Játékos1), !,
    kirajzol(Állás1, Játékos1),
    demo_játék(Állás1, Játékos1).

demo_lépést_választ(_, _, Lépés) :-
    nl, writeln('Melyiket választod?'),
    read(Lépés), érvényes(Lépés).

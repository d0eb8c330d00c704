% Predicates that raise errors, for catch/throw and error-propagation tests.
calls_undefined(X) :- undefined_pred(X).
bad_arith(X) :- X is foo + 1.
throws(Ball) :- throw(Ball).
rethrow(G) :- catch(G, E, (E = error(F, _) -> throw(wrapped(F)) ; throw(E))).
safe_div(X, Y, Z) :- catch(Z is X / Y, error(evaluation_error(zero_divisor), _), Z = inf).
cleanup(G, R) :- catch(G, E, true), ( var(E) -> R = ok ; R = caught(E) ).
deep_throw(0) :- throw(bottom).
deep_throw(N) :- N > 0, N1 is N - 1, deep_throw(N1).
partial(a).
partial(b) :- throw(stop).
partial(c).

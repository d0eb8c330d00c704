% Layout: comments anywhere, newlines inside terms, end tokens followed by % or EOF.
%= f(a,b)
f( a , b ). % comment after the end
%= f(a,b)
f(/* inside */ a, % line comment inside
  b).
%= :-(f(a),','(g(a),h(a)))
f(a) :- /* before body */
    g(a), % one
    h(a). /* after */
%= '/*'
'/*'.
%= :-(x(a),y(a))
x(a) :- y(a).%comment touching the end
/** doc comment */
%= :-(x(b),y(b))
x(b)
  :-
  y(b)
  .
%= v(A,B,A,_,_,C,C,B)
v(X, Y, X, _, _, _Z, _Z, Y).

% Atoms and strings: letter-digit, symbol-char, solo, quoted with every escape; strings; back quotes.
% Deviation from SWI-Prolog 7+: '[]' and [] are the same atom here (docs/language.md, Syntax).
%= a(foo,fooBar_1,'Foo','hello world',[],[],{},{},'',' ')
a(foo, fooBar_1, 'Foo', 'hello world', [], '[]', {}, '{}', '', ' ').
%= a(+,:-,=..,\+,@>=,'.','|',',',',',;,!)
a(+, :-, =.., \+, @>=, '.', '|', ',', (','), ;, !).
%= a('it\'s','a\nb','tab\there',\,'\'','A','A','A','\x1B\',' ','\x0\')
a('it''s', 'a\nb', 'tab\there', '\\', '\'', '\x41\', '\101\', '\x41', '\e', '\s', '\0\').
%= a('\a\b\f\v\r',linecontinued,é,'Été','日本',é,'日本')
a('\a\b\f\v\r', 'line\
continued', 'é', 'Été', '日本', é, 日本).
%= a(é,'😀',"é")
a('\u00e9', '\U0001F600', "\u00e9").
%= s("","abc","it\"s","a\"b","tab\t","multi\nline")
s("", "abc", "it""s", "a\"b", "tab\t", "multi
line").
%= b([97,98,99],[],[97,39,98])
b(`abc`, ``, `a'b`).
% Deviation from SWI-Prolog 7+: '[]' and [] are the same atom here (docs/language.md, Syntax).
%= q(hello(x),'Hello'(x),'a b'(c),[](a),{}(a),{}(a),[](a))
q('hello'(x), 'Hello'(x), 'a b'(c), [](a), {}(a), '{}'(a), '[]'(a)).
%= q(-(1),-(-1),-('1'),dynamic(x))
q('-'(1), '-'(-1), - '1', 'dynamic'(x)).

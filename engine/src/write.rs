//! Writing terms as text: [`canonical`] (SWI-Prolog 9's `write_canonical/1`, the trace format's
//! canonical text, byte for byte) and [`writeq`] (SWI-Prolog's `writeq/1`: operators, quoting, used for
//! messages, hovers and query answers).
//!
//! Both writers are iterative (an explicit job stack): a million-element list or a 100,000-deep
//! `f(f(...))` is written without deep Rust recursion. Deliberate differences from SWI-Prolog are listed
//! in `docs/builtins.md` (`'[]'` and `[]` are the same atom here; unnamed variables are `_G<n>`).

use crate::atom::{self, Atom};
use crate::syntax::ops::{self, OpType};
use crate::term::Term;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The canonical text of `t` (see `trace-format.md`): no operators, quoted atoms where needed (ASCII
/// rules), floats in shortest round-trip form, variables `_` (single occurrence) or `A`, `B`, ...
pub fn canonical(t: &Term) -> String {
    // count occurrences, remember first-occurrence order
    let mut counts: HashMap<u32, u32> = HashMap::new();
    let mut order: Vec<u32> = Vec::new();
    t.walk(|s| {
        if let Term::Var(v) = s {
            let c = counts.entry(*v).or_insert(0);
            if *c == 0 {
                order.push(*v);
            }
            *c += 1;
        }
    });
    let mut names: HashMap<u32, String> = HashMap::new();
    let mut next = 0usize;
    for v in order {
        if counts[&v] > 1 {
            names.insert(v, letter_name(next));
            next += 1;
        } else {
            names.insert(v, "_".to_string());
        }
    }
    let mut w = Writer::new(true, VarNaming::Map(names));
    w.write(t);
    w.out
}

/// `t` as SWI-Prolog's `writeq/1` writes it (operators, quoting, `{}`, lists, `'$VAR'(N)` as a variable
/// name). `Term::Var(i)` is written as `var_names[i]` when given, else `_G<i>`.
pub fn writeq(t: &Term, var_names: Option<&[String]>) -> String {
    let mut w = Writer::new(false, VarNaming::Names(var_names.unwrap_or(&[])));
    w.write(t);
    w.out
}

/// The name of variable number `i` in `A`, `B`, ..., `Z`, `A1`, ... order (as `numbervars/3`).
pub fn letter_name(i: usize) -> String {
    let mut s = String::new();
    s.push((b'A' + (i % 26) as u8) as char);
    if i >= 26 {
        let _ = write!(s, "{}", i / 26);
    }
    s
}

/// Appends the SWI-Prolog text of a float: shortest round-trip digits laid out as dtoa does
/// (`1.0e+15`, `0.0001`, `1.0e-5`, `-0.0`), `1.0Inf`, `-1.0Inf`, `1.5NaN`.
pub fn format_float(f: f64, out: &mut String) {
    if f.is_nan() {
        out.push_str("1.5NaN");
        return;
    }
    if f.is_infinite() {
        out.push_str(if f > 0.0 { "1.0Inf" } else { "-1.0Inf" });
        return;
    }
    if f.is_sign_negative() {
        out.push('-');
    }
    let s = format!("{:e}", f.abs());
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let n = digits.len() as i32;
    let p = exp + 1; // value = 0.DIGITS * 10^p
    if p <= -4 || p > 15 {
        out.push_str(&digits[..1]);
        out.push('.');
        if n > 1 {
            out.push_str(&digits[1..]);
        } else {
            out.push('0');
        }
        out.push('e');
        if exp >= 0 {
            out.push('+');
        }
        let _ = write!(out, "{exp}");
    } else if p <= 0 {
        out.push_str("0.");
        for _ in 0..(-p) {
            out.push('0');
        }
        out.push_str(&digits);
    } else if p < n {
        out.push_str(&digits[..p as usize]);
        out.push('.');
        out.push_str(&digits[p as usize..]);
    } else {
        out.push_str(&digits);
        for _ in 0..(p - n) {
            out.push('0');
        }
        out.push_str(".0");
    }
}

/// The text of a float as [`format_float`] writes it.
pub fn float_text(f: f64) -> String {
    let mut s = String::new();
    format_float(f, &mut s);
    s
}

const SYMBOL_CHARS: &str = "#$&*+-./:<=>?@^~\\";

fn is_symbol_char(c: char) -> bool {
    SYMBOL_CHARS.contains(c)
}

fn is_alnum(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Does the atom need quotes? `ascii` selects `write_canonical`'s rule (only Latin-1 letter-digit atoms
/// are unquoted) instead of `writeq`'s Unicode-aware one.
pub fn atom_needs_quotes(name: &str, ascii: bool) -> bool {
    match name {
        "" => return true,
        "[]" | "{}" | "!" | ";" => return false,
        "," | "|" => return true,
        _ => {}
    }
    let mut chars = name.chars();
    let first = chars.next().unwrap_or(' ');
    if ascii {
        // write_canonical: letters beyond Latin-1 are quoted
        let latin1 = |c: char| (c as u32) < 0x100;
        if latin1(first) && first.is_lowercase() {
            return !name.chars().all(|c| latin1(c) && is_alnum(c));
        }
    } else if first.is_lowercase() {
        return !name.chars().all(is_alnum);
    }
    if name.chars().all(is_symbol_char) {
        return name == "." || name.starts_with("/*");
    }
    true
}

/// Appends `name` quoted with `q` (`'` or `"`), escaping as SWI-Prolog does.
pub fn push_quoted(out: &mut String, name: &str, q: char) {
    out.push(q);
    for c in name.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == q => {
                out.push('\\');
                out.push(c)
            }
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{b}' => out.push_str("\\v"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || (0x7f..0xa0).contains(&(c as u32)) => {
                let _ = write!(out, "\\x{:X}\\", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(q);
}

/// Appends an atom, quoted if needed.
pub fn push_atom(out: &mut String, name: &str, ascii: bool) {
    if atom_needs_quotes(name, ascii) {
        push_quoted(out, name, '\'');
    } else {
        out.push_str(name);
    }
}

enum VarNaming<'a> {
    Map(HashMap<u32, String>),
    Names(&'a [String]),
}

enum Job<'a> {
    /// A term to write at a maximum priority; `arg` when it is a compound argument or list element.
    Term(&'a Term, u16, bool),
    /// Punctuation written as is (no glue check): `,` `|` `)` `]` `}` and argument `(`.
    Punct(&'static str),
    /// An operator token (glue-checked), with a trailing space for alphanumeric infix operators.
    Op(Atom, OpKind),
    /// The rest of a list after an element.
    ListRest(&'a Term),
}

#[derive(Clone, Copy, PartialEq)]
enum OpKind {
    Prefix,
    Infix,
}

struct Writer<'a> {
    out: String,
    canonical: bool,
    vars: VarNaming<'a>,
    /// The last token was a prefix operator: an opening `(` or `{` gets a space before it.
    after_prefix: bool,
    /// The last token was the prefix operator `-` or `+`: a digit gets a space before it (`- 1` is
    /// the compound, `-1` the number).
    after_sign: bool,
}

impl<'a> Writer<'a> {
    fn new(canonical: bool, vars: VarNaming<'a>) -> Writer<'a> {
        Writer {
            out: String::new(),
            canonical,
            vars,
            after_prefix: false,
            after_sign: false,
        }
    }

    /// Appends a token, with a space first when it would glue to the previous one.
    fn token(&mut self, s: &str) {
        if let (Some(last), Some(first)) = (self.out.chars().next_back(), s.chars().next()) {
            if (is_alnum(last) && is_alnum(first))
                || (is_symbol_char(last) && is_symbol_char(first))
                || (self.after_sign && first.is_ascii_digit())
            {
                self.out.push(' ');
            }
        }
        self.out.push_str(s);
        self.after_prefix = false;
        self.after_sign = false;
    }

    fn punct(&mut self, s: &str) {
        self.out.push_str(s);
        self.after_prefix = false;
        self.after_sign = false;
    }

    /// An opening bracket that starts an operand (embracing parenthesis or `{`).
    fn open(&mut self, s: &str) {
        if self.after_prefix {
            self.out.push(' ');
        }
        self.punct(s);
    }

    fn atom_token(&mut self, a: Atom) {
        // as push_atom, without a String for an atom written as it is (most of them)
        let name = a.name();
        if atom_needs_quotes(name, self.canonical) {
            let mut s = String::new();
            push_quoted(&mut s, name, '\'');
            self.token(&s);
        } else {
            self.token(name);
        }
    }

    fn var_name(&self, v: u32) -> String {
        match &self.vars {
            VarNaming::Map(m) => m.get(&v).cloned().unwrap_or_else(|| "_".to_string()),
            VarNaming::Names(ns) => match ns.get(v as usize) {
                Some(n) if !n.is_empty() => n.clone(),
                _ => format!("_G{v}"),
            },
        }
    }

    fn write(&mut self, t: &'a Term) {
        let mut jobs: Vec<Job<'a>> = vec![Job::Term(t, 1200, false)];
        while let Some(job) = jobs.pop() {
            match job {
                Job::Punct(s) => self.punct(s),
                Job::Op(a, kind) => {
                    let name = a.name();
                    if a == atom::COMMA {
                        self.punct(",");
                    } else if a == atom::BAR {
                        self.punct("|");
                    } else {
                        self.atom_token(a);
                        if kind == OpKind::Infix && name.chars().next().is_some_and(is_alnum) {
                            self.out.push(' ');
                        }
                        if kind == OpKind::Prefix {
                            self.after_prefix = true;
                            self.after_sign = a == atom::MINUS || a == atom::PLUS;
                        }
                    }
                }
                Job::ListRest(t) => match t {
                    Term::Compound(f, args) if *f == atom::DOT && args.len() == 2 => {
                        self.punct(",");
                        jobs.push(Job::ListRest(&args[1]));
                        jobs.push(Job::Term(&args[0], 999, true));
                    }
                    Term::Atom(a) if *a == atom::NIL => self.punct("]"),
                    _ => {
                        self.punct("|");
                        jobs.push(Job::Punct("]"));
                        jobs.push(Job::Term(t, 999, true));
                    }
                },
                Job::Term(t, prec, arg) => self.term(t, prec, arg, &mut jobs),
            }
        }
    }

    fn term(&mut self, t: &'a Term, prec: u16, arg: bool, jobs: &mut Vec<Job<'a>>) {
        match t {
            Term::Var(v) => {
                let n = self.var_name(*v);
                self.token(&n);
            }
            Term::Int(i) => {
                let s = i.to_string();
                self.token(&s);
            }
            Term::Float(f) => {
                let s = float_text(*f);
                self.token(&s);
            }
            Term::Str(s) => {
                let mut q = String::new();
                push_quoted(&mut q, s.name(), '"');
                self.token(&q);
            }
            Term::Atom(a) => {
                if !self.canonical && !arg && prec < 1200 && ops::is_op(a.name()) {
                    self.open("(");
                    self.atom_token(*a);
                    self.punct(")");
                } else {
                    self.atom_token(*a);
                }
            }
            Term::Compound(f, args) => {
                if *f == atom::DOT && args.len() == 2 {
                    self.punct("[");
                    jobs.push(Job::ListRest(&args[1]));
                    jobs.push(Job::Term(&args[0], 999, true));
                    return;
                }
                if !self.canonical && self.operator_term(*f, args, prec, jobs) {
                    return;
                }
                self.atom_token(*f);
                self.punct("(");
                jobs.push(Job::Punct(")"));
                for (i, a) in args.iter().enumerate().rev() {
                    jobs.push(Job::Term(a, 999, true));
                    if i > 0 {
                        jobs.push(Job::Punct(","));
                    }
                }
            }
        }
    }

    /// Writes `f(args)` with operator syntax (or `{}`/`'$VAR'`) if it applies; false otherwise.
    fn operator_term(
        &mut self,
        f: Atom,
        args: &'a [Term],
        prec: u16,
        jobs: &mut Vec<Job<'a>>,
    ) -> bool {
        let name = f.name();
        if f == atom::CURLY && args.len() == 1 {
            self.open("{");
            jobs.push(Job::Punct("}"));
            jobs.push(Job::Term(&args[0], 1200, false));
            return true;
        }
        if name == "$VAR" && args.len() == 1 {
            match &args[0] {
                Term::Int(n) if *n >= 0 => {
                    let s = letter_name(*n as usize);
                    self.token(&s);
                    return true;
                }
                Term::Int(n) => {
                    let s = format!("S_{}", n.unsigned_abs());
                    self.token(&s);
                    return true;
                }
                Term::Atom(a)
                    if a.name().starts_with(|c: char| c == '_' || c.is_uppercase())
                        && a.name().chars().all(is_alnum) =>
                {
                    self.token(a.name());
                    return true;
                }
                _ => {}
            }
        }
        if args.len() == 2 {
            if let Some(op) = ops::infix(name) {
                let p = op.priority;
                let (lp, rp) = match op.typ {
                    OpType::Xfx => (p - 1, p - 1),
                    OpType::Xfy => (p - 1, p),
                    _ => (p, p - 1),
                };
                let embrace = p > prec;
                if embrace {
                    self.open("(");
                    jobs.push(Job::Punct(")"));
                }
                jobs.push(Job::Term(&args[1], rp, false));
                jobs.push(Job::Op(f, OpKind::Infix));
                jobs.push(Job::Term(&args[0], lp, false));
                return true;
            }
        }
        if args.len() == 1 {
            if let Some(op) = ops::prefix(name) {
                let p = op.priority;
                let ap = if op.typ == OpType::Fy { p } else { p - 1 };
                let embrace = p > prec;
                if embrace {
                    self.open("(");
                    jobs.push(Job::Punct(")"));
                }
                jobs.push(Job::Term(&args[0], ap, false));
                jobs.push(Job::Op(f, OpKind::Prefix));
                return true;
            }
        }
        false
    }
}

/// Canonical text with `Term::Var(i)` written `_G<i>`: several terms extracted together (the bindings
/// of one query answer) keep their shared variables recognisable.
pub fn canonical_shared(t: &Term) -> String {
    let mut names: HashMap<u32, String> = HashMap::new();
    t.walk(|s| {
        if let Term::Var(v) = s {
            names.insert(*v, format!("_G{v}"));
        }
    });
    let mut w = Writer::new(true, VarNaming::Map(names));
    w.write(t);
    w.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> Term {
        Term::atom(s)
    }
    fn c(f: &str, args: Vec<Term>) -> Term {
        Term::compound(f, args)
    }

    #[test]
    fn floats_as_swi() {
        let cases: &[(f64, &str)] = &[
            (1.0e15, "1.0e+15"),
            (1.0e14, "100000000000000.0"),
            (123456789012345.0, "123456789012345.0"),
            (1234567890123456.0, "1.234567890123456e+15"),
            (9999999999999998.0, "9.999999999999998e+15"),
            (999999999999999.0, "999999999999999.0"),
            (1.0e-4, "0.0001"),
            (1.0e-5, "1.0e-5"),
            (0.00012, "0.00012"),
            (1.5e-7, "1.5e-7"),
            (2.5e-5, "2.5e-5"),
            (1.0e20, "1.0e+20"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (0.1, "0.1"),
            (0.001, "0.001"),
            (1.0e100, "1.0e+100"),
            (5.0e-324, "5.0e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (12.5, "12.5"),
            (100.0, "100.0"),
            (-1.5e300, "-1.5e+300"),
            (0.30000000000000004, "0.30000000000000004"),
            (1.152921504606847e18, "1.152921504606847e+18"),
            (f64::INFINITY, "1.0Inf"),
            (f64::NEG_INFINITY, "-1.0Inf"),
            (f64::NAN, "1.5NaN"),
        ];
        for (f, s) in cases {
            assert_eq!(float_text(*f), *s, "{f:e}");
        }
    }

    #[test]
    fn canonical_as_swi() {
        let t = c(
            "f",
            vec![
                a("A"),
                Term::Var(0),
                Term::Var(1),
                Term::Var(0),
                Term::Str(Atom::new("str\n")),
                a("don't"),
                Term::list_with_tail(vec![a("a")], Term::Var(2)),
                a("hello world"),
                a("[]"),
                a("{}"),
                a("!"),
                a(";"),
                a(","),
                a("|"),
                a("+"),
                a("=.."),
                Term::Str(Atom::new("a\"b")),
                a("a\nb"),
                a("\t"),
                a(""),
            ],
        );
        assert_eq!(
            canonical(&t),
            r#"f('A',A,_,A,"str\n",'don\'t',[a|_],'hello world',[],{},!,;,',','|',+,=..,"a\"b",'a\nb','\t','')"#
        );
        assert_eq!(canonical(&c("-", vec![Term::Int(1)])), "-(1)");
        assert_eq!(
            canonical(&c("-", vec![Term::Int(1), Term::Int(-1)])),
            "-(1,-1)"
        );
        assert_eq!(canonical(&c("{}", vec![a("a")])), "{}(a)");
        assert_eq!(canonical(&a("α")), "'α'");
        assert_eq!(canonical(&a("a_B9")), "a_B9");
        assert_eq!(
            canonical(&a("\u{1}\u{7f}\u{80}\u{1b}\0")),
            "'\\x1\\\\x7F\\\\x80\\\\x1B\\\\x0\\'"
        );
        let vars: Vec<Term> = (0..28).flat_map(|i| [Term::Var(i), Term::Var(i)]).collect();
        let s = canonical(&c("f", vars));
        assert!(s.ends_with("Z,Z,A1,A1,B1,B1)"), "{s}");
    }

    #[test]
    fn writeq_as_swi() {
        let n = |i| Term::Int(i);
        let cases: Vec<(Term, &str)> = vec![
            (c("-", vec![n(1)]), "- 1"),
            (c("-", vec![c("-", vec![n(1)])]), "- - 1"),
            (c("-", vec![a("a"), n(-1)]), "a- -1"),
            (
                c("f", vec![a(","), a("|"), c(":-", vec![a("a"), a("b")])]),
                "f(',','|',(a:-b))",
            ),
            (
                c(":-", vec![a("a"), c(",", vec![a("b"), a("c")])]),
                "a:-b,c",
            ),
            (c("+", vec![n(1), c("*", vec![n(2), n(3)])]), "1+2*3"),
            (c("*", vec![c("+", vec![n(1), n(2)]), n(3)]), "(1+2)*3"),
            (c("{}", vec![c(",", vec![a("a"), a("b")])]), "{a,b}"),
            (c("-", vec![a("a")]), "-a"),
            (c("-", vec![c("-", vec![a("a")])]), "- -a"),
            (c("\\", vec![c("\\", vec![a("a")])]), "\\ \\a"),
            (c("rem", vec![n(1), n(2)]), "1 rem 2"),
            (c("f", vec![a("-")]), "f(-)"),
            (c("-", vec![Term::Float(2.0)]), "- 2.0"),
            (c("-", vec![c("+", vec![a("a"), a("b")])]), "- (a+b)"),
            (c("^", vec![c("-", vec![n(3)]), n(2)]), "(- 3)^2"),
            (c("^", vec![n(-3), n(2)]), "-3^2"),
            (c("-", vec![c("^", vec![n(3), n(2)])]), "- 3^2"),
            (c("+", vec![a("="), a("=")]), "(=)+(=)"),
            (c("-", vec![a("-")]), "- (-)"),
            (c("-", vec![c("{}", vec![a("a")])]), "- {a}"),
            (c("-", vec![Term::list(vec![n(1)])]), "-[1]"),
            (c("rem", vec![Term::list(vec![n(1)]), a("a")]), "[1]rem a"),
            (c("rem", vec![a("a"), a("-")]), "a rem (-)"),
            (
                c("rem", vec![a("a"), c(":-", vec![a("b"), a("c")])]),
                "a rem (b:-c)",
            ),
            (c("mod", vec![a("a"), n(-1)]), "a mod -1"),
            (c(":-", vec![a("a"), c("\\+", vec![a("b")])]), "a:- \\+b"),
            (c("dynamic", vec![a("a")]), "dynamic a"),
            (c("dynamic", vec![c("-", vec![n(1)])]), "dynamic- 1"),
            (c("$VAR", vec![n(27)]), "B1"),
            (c("$VAR", vec![a("Foo")]), "Foo"),
            (c("$VAR", vec![n(-1)]), "S_1"),
            (
                Term::list_with_tail(vec![a("a"), a("B")], a("C")),
                "[a,'B'|'C']",
            ),
            (c("|", vec![a("a"), a("b")]), "a|b"),
            (c(",", vec![a("a"), a("b"), a("c")]), "','(a,b,c)"),
            (
                c("f", vec![c(";", vec![a("a"), a("b")]), a("c")]),
                "f((a;b),c)",
            ),
            (a(":-"), ":-"),
            (c("=", vec![a("a"), a(":-")]), "a=(:-)"),
            (Term::list(vec![a(":-"), a("-")]), "[:-,-]"),
            (a("café"), "café"),
            (a("Éa"), "'Éa'"),
            (Term::Var(3), "_G3"),
        ];
        for (t, s) in cases {
            assert_eq!(writeq(&t, None), s);
        }
        let names = vec!["X".to_string(), "Y".to_string()];
        assert_eq!(
            writeq(&c("f", vec![Term::Var(0), Term::Var(1)]), Some(&names)),
            "f(X,Y)"
        );
    }

    #[test]
    fn deep_terms_do_not_overflow() {
        let list = Term::list((0..1_000_000).map(Term::Int).collect());
        let s = canonical(&list);
        assert!(s.starts_with("[0,1,2,") && s.ends_with(",999999]"));
        assert_eq!(writeq(&list, None), s);
        let mut t = a("x");
        for _ in 0..100_000 {
            t = c("f", vec![t]);
        }
        let s = canonical(&t);
        assert_eq!(s.len(), 100_000 * 3 + 1);
        assert_eq!(writeq(&t, None), s);
        let mut t = n1();
        for _ in 0..100_000 {
            t = c("+", vec![t, Term::Int(1)]);
        }
        assert!(writeq(&t, None).starts_with("1+1+1"));
        fn n1() -> Term {
            Term::Int(1)
        }
    }
}

//! Parameter sweeps (`sidl stats GAME --sweep 'reserve(R)=0,5,10,15'`, docs/stats.md): the
//! designer's "what if". A sweep names a fact of the game by a pattern with one variable and lists
//! the values that variable takes; for each value the game's source is rewritten (the fact's
//! clauses that match the pattern are replaced by the pattern with that value) and loaded again,
//! so the rewritten game is checked like any other. The caller simulates each version with the
//! same seeds and seats and gathers a [`SweepReport`].

use super::{fmt_num, Report, Summary};
use crate::diag::{ColumnUnit, LineIndex};
use crate::syntax::{parse_file, parse_term};
use crate::term::Term;
use crate::write::writeq;
use serde::Serialize;

/// A parsed `PATTERN=VALUES`: the pattern (`reserve(R)`), the name of its one variable (`R`) and
/// the values it takes, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub pattern: Term,
    /// The variable's number in `pattern` and its name.
    pub var: u32,
    pub variable: String,
    pub var_names: Vec<String>,
    pub values: Vec<Term>,
}

impl Sweep {
    /// `reserve(R)=0,5,10,15`: a term with exactly one named variable, `=`, and the values
    /// separated by commas (each a ground term, e.g. `[2, 4]` or `high`).
    pub fn parse(spec: &str) -> Result<Sweep, String> {
        let example = "e.g. --sweep 'reserve(R)=0,5,10,15'";
        let eq = top_level_eq(spec)
            .ok_or_else(|| format!("a sweep is PATTERN=VALUES, {example}; `{spec}` has no `=`"))?;
        let (left, right) = (spec[..eq].trim(), spec[eq + 1..].trim());
        let pattern = parse_term(left).map_err(|d| {
            format!(
                "the pattern `{left}` does not parse: {}",
                d.first().map(|d| d.message.as_str()).unwrap_or("")
            )
        })?;
        if pattern.term.functor().filter(|(_, a)| *a > 0).is_none() {
            return Err(format!(
                "the pattern `{left}` names no fact with arguments: write the fact with a variable where the values go, {example}"
            ));
        }
        let named: Vec<(u32, &String)> = pattern
            .var_names
            .iter()
            .enumerate()
            .filter(|(_, n)| !n.starts_with('_'))
            .map(|(i, n)| (i as u32, n))
            .collect();
        let (var, variable) = match named.as_slice() {
            [(i, n)] => (*i, (*n).clone()),
            [] => {
                return Err(format!(
                    "the pattern `{left}` has no variable: write one where the values go, {example}"
                ))
            }
            more => {
                let names: Vec<&str> = more.iter().map(|(_, n)| n.as_str()).collect();
                return Err(format!(
                    "the pattern `{left}` has the variables {}: a sweep varies one (write `_` for the others)",
                    names.join(", ")
                ));
            }
        };
        if right.is_empty() {
            return Err(format!("no values after `=` in `{spec}`, {example}"));
        }
        let list = parse_term(&format!("[{right}]")).map_err(|d| {
            format!(
                "the values `{right}` do not parse: {}",
                d.first().map(|d| d.message.as_str()).unwrap_or("")
            )
        })?;
        let values: Vec<Term> = match list.term.as_list() {
            Some(items) => items.into_iter().cloned().collect(),
            None => return Err(format!("the values `{right}` are not a list of terms")),
        };
        if let Some(v) = values.iter().find(|v| !v.is_ground()) {
            return Err(format!(
                "the value `{}` has a variable: each value is a ground term",
                writeq(v, Some(&list.var_names))
            ));
        }
        Ok(Sweep {
            pattern: pattern.term,
            var,
            variable,
            var_names: pattern.var_names,
            values,
        })
    }

    /// The pattern as written (`reserve(R)`).
    pub fn pattern_text(&self) -> String {
        writeq(&self.pattern, Some(&self.var_names))
    }

    /// The text of a value (`5`, `[2,4]`).
    pub fn value_text(value: &Term) -> String {
        writeq(value, None)
    }

    /// The fact the pattern gives with `value` for its variable (`reserve(5)`).
    pub fn instance(&self, value: &Term) -> Term {
        replace_var(&self.pattern, self.var, value)
    }

    /// `src` with the fact replaced for `value`: the clauses of the pattern's predicate whose head
    /// matches the pattern must be facts; the first becomes the pattern with `value`, the others
    /// are removed (their lines stay, empty, so that line numbers do not move). An error says why
    /// the pattern does not name a fact of the game.
    pub fn substitute(&self, src: &str, value: &Term) -> Result<String, String> {
        let Some((name, arity)) = self.pattern.functor() else {
            return Err("the pattern names no fact".to_string());
        };
        let parsed = parse_file(src);
        let lines = LineIndex::new(src);
        let line = |offset: u32| lines.line_col(src, offset, ColumnUnit::Utf8).line + 1;
        let same: Vec<_> = parsed
            .clauses
            .iter()
            .filter(|c| !c.is_directive() && c.head().functor() == Some((name, arity)))
            .collect();
        let pred = format!("{}/{arity}", writeq(&Term::Atom(name), None));
        if same.is_empty() {
            let others: Vec<String> = parsed
                .clauses
                .iter()
                .filter_map(|c| c.head().functor())
                .filter(|(n, a)| *n == name && *a != arity)
                .map(|(n, a)| format!("{}/{a}", writeq(&Term::Atom(n), None)))
                .fold(Vec::new(), |mut v, p| {
                    if !v.contains(&p) {
                        v.push(p);
                    }
                    v
                });
            let hint = if others.is_empty() {
                "a sweep replaces a fact of the game, e.g. `reserve(5).`".to_string()
            } else {
                format!("the game has {}", others.join(", "))
            };
            return Err(format!("the game has no `{pred}`: {hint}"));
        }
        let head_term = |c: &crate::syntax::Clause| match &c.term {
            Term::Compound(n, args) if *n == crate::atom::NECK && args.len() == 2 => {
                args[0].clone()
            }
            t => t.clone(),
        };
        let matching: Vec<_> = same
            .iter()
            .filter(|c| matches(&head_term(c), &self.pattern))
            .collect();
        if matching.is_empty() {
            return Err(format!(
                "no clause of `{pred}` matches `{}` (the game has `{pred}` on line(s) {})",
                self.pattern_text(),
                same.iter()
                    .map(|c| line(c.span.start).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(rule) = matching.iter().find(|c| c.body().is_some()) {
            return Err(format!(
                "`{pred}` is not a fact: the clause on line {} has a body; a sweep replaces facts \
                 only (write the parameter as a fact, e.g. `{}.`, and use it in the rule)",
                line(rule.span.start),
                writeq(&self.instance(&self.values[0]), Some(&self.var_names))
            ));
        }
        let mut out = String::with_capacity(src.len() + 16);
        let mut at = 0usize;
        for (i, c) in matching.iter().enumerate() {
            let r = c.span.range();
            out.push_str(&src[at..r.start]);
            if i == 0 {
                out.push_str(&writeq(&self.instance(value), Some(&self.var_names)));
                out.push('.');
            }
            // keep the line numbers of everything after the replaced clause
            out.extend(std::iter::repeat_n(
                '\n',
                src[r.clone()].matches('\n').count(),
            ));
            at = r.end;
        }
        out.push_str(&src[at..]);
        Ok(out)
    }
}

/// The byte offset of the first `=` outside brackets and quotes.
fn top_level_eq(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for (i, ch) in s.char_indices() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(ch),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, '=') if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// Whether two terms could unify, a variable on either side matching anything (the clause's and
/// the pattern's variables are not tied to each other).
fn matches(a: &Term, b: &Term) -> bool {
    match (a, b) {
        (Term::Var(_), _) | (_, Term::Var(_)) => true,
        (Term::Compound(n, x), Term::Compound(m, y)) => {
            n == m && x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| matches(p, q))
        }
        (Term::Float(x), Term::Float(y)) => x.to_bits() == y.to_bits(),
        (x, y) => x == y,
    }
}

fn replace_var(t: &Term, var: u32, value: &Term) -> Term {
    match t {
        Term::Var(v) if *v == var => value.clone(),
        Term::Compound(n, args) => Term::new_compound(
            *n,
            args.iter().map(|a| replace_var(a, var, value)).collect(),
        ),
        t => t.clone(),
    }
}

/// One value of a sweep and the report of its games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepPoint {
    /// The value's text (`5`).
    pub value: String,
    /// The value as a number, when it is one (the x of the plots).
    pub x: Option<f64>,
    pub report: Report,
}

/// The reports of a sweep, one per value, in the order given.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepReport {
    /// The pattern (`reserve(R)`).
    pub pattern: String,
    /// Its variable (`R`).
    pub variable: String,
    pub points: Vec<SweepPoint>,
}

/// A statistic of a sweep that has a mean per value: game length, each account, each metric.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    /// A short key fit for a file name (`length`, `account-ann`, `metric-revenue`).
    pub key: String,
    /// Its name for people (`chronons per game`, `account of [ann]`, `metric revenue`).
    pub title: String,
    /// Per point: the summary, if the games of that value had one.
    pub summaries: Vec<Option<Summary>>,
}

impl SweepReport {
    /// Assembles the reports of the values (`reports[i]` for `sweep.values[i]`).
    pub fn new(sweep: &Sweep, reports: Vec<Report>) -> SweepReport {
        SweepReport {
            pattern: sweep.pattern_text(),
            variable: sweep.variable.clone(),
            points: sweep
                .values
                .iter()
                .zip(reports)
                .map(|(v, report)| SweepPoint {
                    value: Sweep::value_text(v),
                    x: v.as_f64(),
                    report,
                })
                .collect(),
        }
    }

    /// The statistics with a mean per value, in a fixed order: length, accounts, metrics (names in
    /// order of first appearance over the points).
    pub fn measures(&self) -> Vec<Measure> {
        let mut out = vec![Measure {
            key: "length".to_string(),
            title: "chronons per game".to_string(),
            summaries: self
                .points
                .iter()
                .map(|p| p.report.length.clone())
                .collect(),
        }];
        // players by name: a sweep may change them (e.g. the list of bidders)
        let mut players: Vec<&str> = Vec::new();
        for p in &self.points {
            for q in &p.report.players {
                if !players.contains(&q.player.as_str()) {
                    players.push(&q.player);
                }
            }
        }
        for pl in players {
            out.push(Measure {
                key: format!("account-{}", super::plot::file_name(pl)),
                title: format!("account of {pl}"),
                summaries: self
                    .points
                    .iter()
                    .map(|p| {
                        p.report
                            .players
                            .iter()
                            .find(|q| q.player == pl)
                            .and_then(|q| q.account.clone())
                    })
                    .collect(),
            });
        }
        let mut names: Vec<&str> = Vec::new();
        for p in &self.points {
            for m in &p.report.metrics {
                if !names.contains(&m.name.as_str()) {
                    names.push(&m.name);
                }
            }
        }
        for name in names {
            out.push(Measure {
                key: format!("metric-{}", super::plot::file_name(name)),
                title: format!("metric {name}"),
                summaries: self
                    .points
                    .iter()
                    .map(|p| {
                        p.report
                            .metrics
                            .iter()
                            .find(|m| m.name == name)
                            .and_then(|m| m.summary.clone())
                    })
                    .collect(),
            });
        }
        out
    }

    /// The reports for people: a table of the means per value, then each value's full report.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "sweep {}: {} = {}\n\n",
            self.pattern,
            self.variable,
            self.points
                .iter()
                .map(|p| p.value.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let measures: Vec<Measure> = self
            .measures()
            .into_iter()
            .filter(|m| m.summaries.iter().any(Option::is_some))
            .collect();
        let cell = |s: &Option<Summary>| match s {
            Some(s) => format!(
                "{} ({} to {})",
                fmt_num(s.mean),
                fmt_num(s.ci95[0]),
                fmt_num(s.ci95[1])
            ),
            None => "–".to_string(),
        };
        let vw = self
            .points
            .iter()
            .map(|p| p.value.chars().count())
            .chain([self.variable.chars().count()])
            .max()
            .unwrap_or(1);
        out.push_str("mean (95 % CI) per value\n");
        for m in &measures {
            out.push_str(&format!("  {}\n", m.title));
            for (p, s) in self.points.iter().zip(&m.summaries) {
                out.push_str(&format!(
                    "    {} = {:<vw$}  {}\n",
                    self.variable,
                    p.value,
                    cell(s)
                ));
            }
        }
        for p in &self.points {
            out.push_str(&format!("\n{} = {}\n", self.variable, p.value));
            for l in p.report.to_text().lines() {
                out.push_str("  ");
                out.push_str(l);
                out.push('\n');
            }
        }
        out
    }

    /// CSV rows as [`Report::to_csv`] with a first column named after the variable holding the
    /// value.
    pub fn to_csv(&self) -> String {
        let q = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        };
        let mut out = String::new();
        for (i, p) in self.points.iter().enumerate() {
            let csv = p.report.to_csv();
            let mut lines = csv.lines();
            if let Some(header) = lines.next() {
                if i == 0 {
                    out.push_str(&format!("{},{header}\n", q(&self.variable)));
                }
            }
            for l in lines {
                out.push_str(&format!("{},{l}\n", q(&p.value)));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "% a game\nreserve(0).\nbidders([ann, bob]).\nprice(low, 1).\nprice(high,\n  9).\nrule(X) :- X = 1.\n";

    fn sub(spec: &str, i: usize) -> Result<String, String> {
        let s = Sweep::parse(spec)?;
        s.substitute(GAME, &s.values[i])
    }

    #[test]
    fn a_fact_is_replaced_and_line_numbers_stay() {
        let out = sub("reserve(R)=0,5,10", 1).unwrap();
        assert_eq!(out, GAME.replace("reserve(0).", "reserve(5)."));
        let out = sub("price(high, P) = 3, 7", 1).unwrap();
        assert_eq!(out, GAME.replace("price(high,\n  9).", "price(high,7).\n"));
        assert_eq!(out.lines().count(), GAME.lines().count());
        let out = sub("bidders(B)=[ann], [ann, bob, cy]", 1).unwrap();
        assert!(out.contains("bidders([ann,bob,cy])."), "{out}");
        // two matching facts: the first is replaced, the second removed
        let out = sub("price(_, P)=4", 0).unwrap();
        assert!(
            out.contains("price(_,4).") && !out.contains("price(low"),
            "{out}"
        );
    }

    #[test]
    fn bad_sweeps_say_why() {
        let e = |spec: &str| sub(spec, 0).unwrap_err();
        assert!(e("reserve(R)").contains("has no `=`"));
        assert!(e("reserve=1,2").contains("names no fact"));
        assert!(e("reserve(5)=1,2").contains("has no variable"));
        assert!(e("price(A, B)=1").contains("the variables A, B"));
        assert!(e("reserve(R)=").contains("no values"));
        assert!(e("reserve(R)=1,X").contains("has a variable"));
        assert!(e("reserv(R)=1").contains("the game has no `reserv/1`"));
        assert!(e("price(P)=1").contains("the game has price/2"));
        assert!(e("price(mid, P)=1").contains("no clause of `price/2` matches"));
        let rule = e("rule(X)=1");
        assert!(
            rule.contains("`rule/1` is not a fact: the clause on line 7 has a body"),
            "{rule}"
        );
    }
}

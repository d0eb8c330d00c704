//! Layouts: how a game's state is laid out for a person (docs/reference.md "Layouts").
//!
//! A game may define the hooks `layout(Part)` (every solution is one part, in order) and
//! `piece(Fact, Drawing)` (how one fact is drawn): ordinary predicates that the tools ask, never
//! the game manager. A part is one of
//!
//! - `board(Pattern, X-Columns, Y-Rows)`: a grid. Every visible fact that matches the list pattern
//!   `Pattern` is a piece on the square (X, Y): `X` and `Y` are variables of the pattern,
//!   `Columns` the values of `X` left to right and `Rows` those of `Y` top to bottom (ground lists).
//! - `table(Title, Pattern, Cells)`: one row per visible fact that matches `Pattern`, its cells the
//!   list `Cells` with the pattern's variables bound (each cell a label text: parts joined,
//!   `label(Thing)` looked up).
//! - `hand(Pattern, Owner, Item)`: the items of the facts matching `Pattern` whose `Owner` is the
//!   viewer (the designer sees every player's hand).
//! - `facts`: the visible facts no other part shows, grouped by kind (their first element).
//!
//! A piece (a square of a board, an item of a hand) is drawn by the first answer of
//! `piece(Fact, Drawing)`: `none` (nothing is drawn), `image(Path)` or `image(Path, Text)` (an
//! image shipped next to the game: a relative path, no scheme, no `..`; `Text` is what a text
//! renderer shows), or a label text (`"♛"`, `x`, `[P, ' ', N]`). Without an answer a square shows
//! the values of the pattern's other variables joined by a space (`●` when there are none), an
//! item the text of `Item`.
//!
//! [`layout`] evaluates the hooks for ONE viewer in that viewer's view (the session a
//! [`Presenter`] holds: only the facts the viewer may see), under the label budgets: a hidden fact
//! is never placed, and a rule never reads one. Bad parts and rule errors are skipped and listed in
//! [`Layout::errors`] (`sidl check` reports them as W0421), never an error of the game. The result is
//! plain data ([`Layout`]) that every adapter draws; [`Layout::text`] is its one text form (`sidl
//! play`). A game without `layout/1` may still give the deprecated header hint
//! `% board: PATTERN x COLUMNS y ROWS [blank LABEL]` ([`board_hint`]): it is converted here into a
//! `board` part, so it is drawn by the same rule.

use super::present::Presenter;
use super::{RuntimeError, Session};
use crate::atom::Atom;
use crate::term::Term;
use crate::write::writeq;
use serde::Serialize;
use unicode_width::UnicodeWidthStr;

/// `layout(Part)`: the parts of the layout.
pub const LAYOUT: (&str, u32) = ("layout", 1);
/// `piece(Fact, Drawing)`: how a fact is drawn on a board or in a hand.
pub const PIECE: (&str, u32) = ("piece", 2);

/// The most parts of a layout.
pub const MAX_PARTS: usize = 16;
/// The most squares of one board (columns × rows).
pub const MAX_SQUARES: usize = 1024;
/// The most rows of one table (and items of one hand; groups of `facts`).
pub const MAX_ROWS: usize = 256;
/// The most cells of one table row.
pub const MAX_CELLS: usize = 64;
/// The most hook queries of one layout (`layout/1` once, `piece/2` per piece).
pub const MAX_QUERIES: usize = 2048;
/// The most errors kept.
const MAX_ERRORS: usize = 8;
/// The deepest part term read (deeper ones are refused: the walk below is recursive).
const MAX_DEPTH: usize = 64;
/// The longest image path.
const MAX_PATH: usize = 200;

/// A game's layout for one viewer.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Layout {
    pub parts: Vec<Part>,
    /// What went wrong (a malformed part, a rule that threw or ran out of budget): the part or the
    /// piece was left out. For the lint (W0421); renderers ignore it.
    #[serde(skip)]
    pub errors: Vec<String>,
}

/// One part of a layout.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Part {
    /// A grid: `squares[row][column]`, rows top to bottom, columns left to right.
    Board {
        columns: Vec<String>,
        rows: Vec<String>,
        squares: Vec<Vec<Option<Piece>>>,
    },
    /// A table with a title; every row has its cells.
    Table {
        title: String,
        rows: Vec<Vec<String>>,
    },
    /// A player's hand.
    Hand { player: String, items: Vec<Piece> },
}

/// A piece: its text (a symbol, a word; the alternative text of an image), the image path relative
/// to the game file when it is drawn as one, and the title (the fact's label, or its raw text).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Piece {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    pub title: String,
}

/// Does the game define `layout/1` (or the deprecated `% board:` hint)?
pub fn has_layout(game: &super::Game) -> bool {
    game.program.pred(Atom::new(LAYOUT.0), LAYOUT.1).is_some() || board_hint(&game.source).is_some()
}

/// The layout of `s`'s current state for `viewer` (`None`: the designer), with labels in `lang`.
/// Only a hidden/2 error is returned (the view itself cannot be built then).
pub fn layout(
    s: &mut Session,
    viewer: Option<&Term>,
    lang: Option<&str>,
) -> Result<Layout, RuntimeError> {
    layout_with(s, viewer, lang, Texts::Labels)
}

/// What a layout's texts are: the game's labels, or (for the designer's "raw terms" toggle) the
/// raw terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Texts {
    /// Labels (`label/2`, `label/3`) and the drawings of `piece/2`.
    Labels,
    /// The raw terms: the same parts, squares and rows, but no `label/2` or `label/3` rule is
    /// asked and `piece/2` only whether a fact is drawn (`none`): a `label(Thing)` part is the
    /// thing's `writeq` text, a piece the `writeq` text of every element of its pattern the board
    /// does not place (`white queen`, not `♕`; an item of a hand its term), every title the
    /// fact's `writeq` text.
    Raw,
}

/// [`layout`] with its texts chosen ([`Texts`]): the parts, squares and rows are the same, only
/// their texts differ.
pub fn layout_with(
    s: &mut Session,
    viewer: Option<&Term>,
    lang: Option<&str>,
    texts: Texts,
) -> Result<Layout, RuntimeError> {
    let game = s.game().clone();
    let has_layout = game.program.pred(Atom::new(LAYOUT.0), LAYOUT.1).is_some();
    let hint = if has_layout {
        None
    } else {
        match board_hint(&game.source) {
            Some(Ok(h)) => Some(h),
            Some(Err(_)) | None => return Ok(Layout::default()),
        }
    };
    let raw = texts == Texts::Raw;
    let has_piece = game.program.pred(Atom::new(PIECE.0), PIECE.1).is_some();
    let players = s.players();
    let mut pr = Presenter::viewing(s, viewer, lang)?;
    if raw {
        pr.without_labels();
    }
    let mut ev = Eval {
        pr,
        has_piece,
        raw,
        queries: 0,
        errors: Vec::new(),
        viewer: viewer.cloned(),
        players,
    };
    let specs = match hint {
        Some(h) => vec![Ok(h)],
        None => ev
            .ask(
                &Term::compound(LAYOUT.0, vec![Term::Var(0)]),
                &Term::Var(0),
                MAX_PARTS,
            )
            .into_iter()
            .map(|t| Spec::read(&t))
            .collect(),
    };
    let facts: Vec<Term> = match ev.pr.view_session() {
        Some(v) => v.state().facts.terms().cloned().collect(),
        None => Vec::new(),
    };
    let mut shown = vec![false; facts.len()];
    let mut parts = Vec::new();
    let mut rest = false;
    for spec in specs {
        match spec {
            Ok(Spec::Facts) => rest = true,
            Ok(spec) => parts.extend(ev.part(&spec, &facts, &mut shown)),
            Err(e) => ev.error(e),
        }
    }
    if rest {
        parts.extend(ev.rest(&facts, &shown));
    }
    Ok(Layout {
        parts,
        errors: ev.errors,
    })
}

/// A part as the rule gave it.
#[derive(Clone, Debug, PartialEq)]
enum Spec {
    Board {
        pattern: Term,
        x: u32,
        y: u32,
        columns: Vec<Term>,
        rows: Vec<Term>,
        /// The default text drawn as an empty square (the hint's `blank LABEL`).
        blank: Option<String>,
        /// Variables that make no word of the default text (the hint's `_`).
        quiet: Vec<u32>,
    },
    Table {
        title: Term,
        pattern: Term,
        cells: Term,
    },
    Hand {
        pattern: Term,
        owner: Term,
        item: Term,
    },
    Facts,
}

impl Spec {
    fn read(t: &Term) -> Result<Spec, String> {
        if depth(t) > MAX_DEPTH {
            return Err("a layout part: nested too deep".into());
        }
        let bad = |what: &str| Err(format!("a layout part: {what}: {}", writeq(t, None)));
        match t {
            Term::Atom(a) if a.name() == "facts" => Ok(Spec::Facts),
            Term::Compound(f, args) => match (f.name(), &args[..]) {
                ("board", [pattern, xs, ys]) => {
                    let axis = |a: &Term| -> Option<(u32, Vec<Term>)> {
                        match a {
                            Term::Compound(m, ab) if m.name() == "-" && ab.len() == 2 => {
                                let Term::Var(v) = ab[0] else { return None };
                                let items = ab[1].as_list()?;
                                if items.is_empty() || !items.iter().all(|i| i.is_ground()) {
                                    return None;
                                }
                                Some((v, items.into_iter().cloned().collect()))
                            }
                            _ => None,
                        }
                    };
                    let (Some((x, columns)), Some((y, rows))) = (axis(xs), axis(ys)) else {
                        return bad("a board's axes are X-Columns and Y-Rows, variables of the pattern with ground lists");
                    };
                    let mut vars = Vec::new();
                    pattern.walk(|s| {
                        if let Term::Var(v) = s {
                            vars.push(*v)
                        }
                    });
                    if x == y || !vars.contains(&x) || !vars.contains(&y) {
                        return bad("a board's X and Y are two variables of its pattern");
                    }
                    if columns.len() * rows.len() > MAX_SQUARES {
                        return bad(&format!("a board of more than {MAX_SQUARES} squares"));
                    }
                    Ok(Spec::Board {
                        pattern: pattern.clone(),
                        x,
                        y,
                        columns,
                        rows,
                        blank: None,
                        quiet: Vec::new(),
                    })
                }
                ("table", [title, pattern, cells]) => Ok(Spec::Table {
                    title: title.clone(),
                    pattern: pattern.clone(),
                    cells: cells.clone(),
                }),
                ("hand", [pattern, owner, item]) => Ok(Spec::Hand {
                    pattern: pattern.clone(),
                    owner: owner.clone(),
                    item: item.clone(),
                }),
                _ => bad("not a layout part (board/3, table/3, hand/3, facts)"),
            },
            _ => bad("not a layout part (board/3, table/3, hand/3, facts)"),
        }
    }
}

/// The depth of a term (iterative).
fn depth(t: &Term) -> usize {
    let mut max = 0;
    let mut stack = vec![(t, 1usize)];
    while let Some((t, d)) = stack.pop() {
        max = max.max(d);
        if max > MAX_DEPTH {
            return max;
        }
        stack.extend(t.args().iter().map(|a| (a, d + 1)));
    }
    max
}

/// Matches the pattern `p` against the ground term `t`, binding `b[v]` (iterative).
fn matches(p: &Term, t: &Term, b: &mut Vec<Option<Term>>) -> bool {
    let mut stack = vec![(p, t)];
    while let Some((p, t)) = stack.pop() {
        match (p, t) {
            (Term::Var(v), _) => {
                let v = *v as usize;
                if b.len() <= v {
                    b.resize(v + 1, None);
                }
                match &b[v] {
                    Some(old) if old != t => return false,
                    Some(_) => {}
                    None => b[v] = Some(t.clone()),
                }
            }
            (Term::Compound(f, a), Term::Compound(g, c)) if f == g && a.len() == c.len() => {
                stack.extend(a.iter().zip(c.iter()));
            }
            _ if p == t => {}
            _ => return false,
        }
    }
    true
}

/// `t` with the bound variables replaced (recursive: parts are at most [`MAX_DEPTH`] deep).
fn subst(t: &Term, b: &[Option<Term>]) -> Term {
    match t {
        Term::Var(v) => b
            .get(*v as usize)
            .and_then(|x| x.clone())
            .unwrap_or_else(|| t.clone()),
        Term::Compound(f, args) => {
            Term::new_compound(*f, args.iter().map(|a| subst(a, b)).collect())
        }
        _ => t.clone(),
    }
}

/// Is `p` a path of a file next to the game (relative, no scheme, no `..`, plain characters)?
pub fn safe_path(p: &str) -> bool {
    !p.is_empty()
        && p.len() <= MAX_PATH
        && !p.starts_with('/')
        && p.split('/').all(|seg| !seg.is_empty() && seg != "..")
        && p.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
}

struct Eval {
    pr: Presenter,
    has_piece: bool,
    /// [`Texts::Raw`]: `piece/2` is asked only whether a fact is drawn at all (`none`).
    raw: bool,
    queries: usize,
    errors: Vec<String>,
    viewer: Option<Term>,
    players: Vec<Term>,
}

impl Eval {
    fn error(&mut self, e: String) {
        if self.errors.len() < MAX_ERRORS && !self.errors.contains(&e) {
            self.errors.push(e);
        }
    }

    /// The answers of a hook query in the viewer's view (none after [`MAX_QUERIES`] or an error).
    fn ask(&mut self, goal: &Term, template: &Term, max: usize) -> Vec<Term> {
        if self.queries >= MAX_QUERIES {
            return Vec::new();
        }
        self.queries += 1;
        let Some(v) = self.pr.view_session() else {
            return Vec::new();
        };
        match v.query_state(goal, template, max, "layout") {
            Ok(ts) => ts,
            Err(e) => {
                let what = goal.functor().map(|(n, a)| format!("{}/{a}", n.name()));
                self.error(format!("{}: {}", what.unwrap_or_default(), e.message));
                Vec::new()
            }
        }
    }

    /// The text of a label `Text` term, or its `writeq` text.
    fn text(&mut self, t: &Term) -> String {
        self.pr.text_term(t).unwrap_or_else(|| writeq(t, None))
    }

    /// How fact `f` is drawn (`None`: not at all), `default` without a `piece/2` answer. In raw
    /// terms ([`Texts::Raw`]) the text is `raw` (else `default`) unless `piece/2` says `none`.
    fn piece(
        &mut self,
        f: &Term,
        default: String,
        blank: Option<&str>,
        raw: Option<String>,
    ) -> Option<Piece> {
        let title = self.pr.fact(f);
        if self.has_piece {
            let answers = self.ask(
                &Term::compound(PIECE.0, vec![f.clone(), Term::Var(0)]),
                &Term::Var(0),
                1,
            );
            if let Some(d) = answers.first() {
                match d {
                    Term::Atom(a) if a.name() == "none" => return None,
                    _ if self.raw => {}
                    Term::Compound(n, args)
                        if n.name() == "image" && (args.len() == 1 || args.len() == 2) =>
                    {
                        let path = match &args[0] {
                            Term::Atom(a) | Term::Str(a) => a.name().to_string(),
                            _ => String::new(),
                        };
                        if safe_path(&path) {
                            let text = match args.get(1) {
                                Some(t) => self.text(t),
                                None => default,
                            };
                            return Some(Piece {
                                text,
                                image: Some(path),
                                title,
                            });
                        }
                        self.error(format!(
                            "piece/2: not a relative path of a file next to the game: {}",
                            writeq(&args[0], None)
                        ));
                    }
                    d => {
                        if let Some(text) = self.pr.text_term(d) {
                            return Some(Piece {
                                text,
                                image: None,
                                title,
                            });
                        }
                    }
                }
            }
        }
        if blank == Some(default.as_str()) {
            return None;
        }
        Some(Piece {
            text: if self.raw {
                raw.unwrap_or(default)
            } else {
                default
            },
            image: None,
            title,
        })
    }

    fn part(&mut self, spec: &Spec, facts: &[Term], shown: &mut [bool]) -> Vec<Part> {
        match spec {
            Spec::Board {
                pattern,
                x,
                y,
                columns,
                rows,
                blank,
                quiet,
            } => {
                let mut squares: Vec<Vec<Option<Piece>>> =
                    vec![vec![None; columns.len()]; rows.len()];
                let mut others = Vec::new();
                pattern.walk(|t| {
                    if let Term::Var(v) = t {
                        if v != x && v != y && !quiet.contains(v) && !others.contains(v) {
                            others.push(*v);
                        }
                    }
                });
                for (i, f) in facts.iter().enumerate() {
                    let mut b = Vec::new();
                    if !matches(pattern, f, &mut b) {
                        continue;
                    }
                    let (Some(Some(xv)), Some(Some(yv))) = (b.get(*x as usize), b.get(*y as usize))
                    else {
                        continue;
                    };
                    let (Some(ci), Some(ri)) = (
                        columns.iter().position(|c| c == xv),
                        rows.iter().position(|r| r == yv),
                    ) else {
                        continue;
                    };
                    shown[i] = true;
                    if squares[ri][ci].is_some() {
                        continue;
                    }
                    let words: Vec<String> = others
                        .iter()
                        .filter_map(|v| b.get(*v as usize).cloned().flatten())
                        .map(|t| self.text(&t))
                        .collect();
                    let default = if words.is_empty() {
                        "●".to_string()
                    } else {
                        words.join(" ")
                    };
                    // raw terms: every element the square does not place, `_` ones too
                    let raw = self.raw.then(|| {
                        let mut vars = Vec::new();
                        pattern.walk(|t| {
                            if let Term::Var(v) = t {
                                if v != x && v != y && !vars.contains(v) {
                                    vars.push(*v);
                                }
                            }
                        });
                        let words: Vec<String> = vars
                            .iter()
                            .filter_map(|v| b.get(*v as usize).cloned().flatten())
                            .map(|t| writeq(&t, None))
                            .collect();
                        if words.is_empty() {
                            writeq(f, None)
                        } else {
                            words.join(" ")
                        }
                    });
                    squares[ri][ci] = self.piece(f, default, blank.as_deref(), raw);
                }
                let columns = columns.iter().map(|c| self.text(c)).collect();
                let rows = rows.iter().map(|r| self.text(r)).collect();
                vec![Part::Board {
                    columns,
                    rows,
                    squares,
                }]
            }
            Spec::Table {
                title,
                pattern,
                cells,
            } => {
                let title = self.text(title);
                let mut out = Vec::new();
                for (i, f) in facts.iter().enumerate() {
                    let mut b = Vec::new();
                    if out.len() >= MAX_ROWS || !matches(pattern, f, &mut b) {
                        continue;
                    }
                    shown[i] = true;
                    let row = subst(cells, &b);
                    match row.as_list() {
                        Some(items) => {
                            let items: Vec<Term> =
                                items.into_iter().take(MAX_CELLS).cloned().collect();
                            out.push(items.iter().map(|c| self.text(c)).collect());
                        }
                        None => out.push(vec![self.text(&row)]),
                    }
                }
                vec![Part::Table { title, rows: out }]
            }
            Spec::Hand {
                pattern,
                owner,
                item,
            } => {
                // the viewer's own hand; the designer sees every player's
                let owners: Vec<Term> = match &self.viewer {
                    Some(v) => vec![v.clone()],
                    None => self.players.clone(),
                };
                let mut hands: Vec<Vec<Piece>> = vec![Vec::new(); owners.len()];
                for (i, f) in facts.iter().enumerate() {
                    let mut b = Vec::new();
                    if !matches(pattern, f, &mut b) {
                        continue;
                    }
                    let o = subst(owner, &b);
                    let Some(k) = owners.iter().position(|p| *p == o) else {
                        continue;
                    };
                    shown[i] = true;
                    if hands[k].len() >= MAX_ROWS {
                        continue;
                    }
                    let default = self.text(&subst(item, &b));
                    let raw = self.raw.then(|| writeq(&subst(item, &b), None));
                    if let Some(p) = self.piece(f, default, None, raw) {
                        hands[k].push(p);
                    }
                }
                owners
                    .iter()
                    .zip(hands)
                    .filter(|(_, items)| self.viewer.is_some() || !items.is_empty())
                    .map(|(o, items)| Part::Hand {
                        player: self.pr.player(o),
                        items,
                    })
                    .collect()
            }
            Spec::Facts => Vec::new(),
        }
    }

    /// `facts`: the visible facts no other part shows, a table per kind (first element).
    fn rest(&mut self, facts: &[Term], shown: &[bool]) -> Vec<Part> {
        let mut groups: Vec<(String, Vec<Vec<String>>)> = Vec::new();
        for (f, _) in facts.iter().zip(shown).filter(|(_, s)| !**s) {
            let (kind, rest): (String, Vec<Term>) = match f.as_list() {
                Some(items) if !items.is_empty() => (
                    self.text(items[0]),
                    items[1..].iter().map(|t| (*t).clone()).collect(),
                ),
                _ => (String::new(), vec![f.clone()]),
            };
            let row = match self.pr.label(&super::present::Thing::Fact(f.clone())) {
                Some(l) => vec![l],
                None => rest.iter().map(|t| self.text(t)).collect(),
            };
            match groups.iter().position(|(k, _)| *k == kind) {
                Some(g) if groups[g].1.len() < MAX_ROWS => groups[g].1.push(row),
                Some(_) => {}
                None if groups.len() < MAX_ROWS => groups.push((kind, vec![row])),
                None => {}
            }
        }
        groups
            .into_iter()
            .map(|(title, rows)| Part::Table { title, rows })
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// the deprecated header hint

/// The first `board:` hint line of a source (in a comment: `% board: …` or inside `/* … */`), as
/// a board part: `None` without one, `Err` (with the hint's byte span) when it does not read.
fn board_hint(src: &str) -> Option<Result<Spec, (usize, usize)>> {
    let mut offset = 0;
    for line in src.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let t = line.trim();
        let t = t
            .strip_prefix('%')
            .or_else(|| t.strip_prefix("/*"))
            .or_else(|| t.strip_prefix('*'))
            .unwrap_or(t)
            .trim_start();
        let Some(body) = t.strip_prefix("board:") else {
            continue;
        };
        let body = body.trim().trim_end_matches("*/").trim();
        let span = (start, start + line.trim_end().len());
        return Some(read_hint(body).ok_or(span));
    }
    None
}

fn read_hint(body: &str) -> Option<Spec> {
    if !body.starts_with('[') {
        return None;
    }
    let mut d = 0i32;
    let mut end = None;
    for (i, c) in body.char_indices() {
        match c {
            '[' | '(' => d += 1,
            ']' | ')' => {
                d -= 1;
                if d == 0 {
                    end = Some(i + 1);
                    break;
                }
            }
            _ => {}
        }
    }
    let end = end?;
    let read = crate::syntax::parse_term(&body[..end]).ok()?;
    let words: Vec<&str> = body[end..].split_whitespace().collect();
    let (xs, ys, blank) = match words[..] {
        ["x", xs, "y", ys] => (xs, ys, None),
        ["x", xs, "y", ys, "blank", b] => (xs, ys, Some(b.to_string())),
        _ => return None,
    };
    let var = |name: &str| {
        read.var_names
            .iter()
            .position(|n| n == name)
            .map(|i| i as u32)
    };
    let (x, y) = (var("X")?, var("Y")?);
    let (columns, rows) = (range(xs)?, range(ys)?);
    if columns.len() * rows.len() > MAX_SQUARES {
        return None;
    }
    // `_` and `_Name` make no word of the piece's text
    let mut quiet = Vec::new();
    read.term.walk(|t| {
        if let Term::Var(v) = t {
            match read.var_names.get(*v as usize) {
                Some(n) if !n.starts_with('_') => {}
                _ => quiet.push(*v),
            }
        }
    });
    Some(Spec::Board {
        pattern: read.term,
        x,
        y,
        columns,
        rows,
        blank,
        quiet,
    })
}

/// `1..8`, `8..1`, `a..h` or a comma list `a,b,c` (at most 64 values).
fn range(spec: &str) -> Option<Vec<Term>> {
    let out: Vec<Term> = if let Some((a, b)) = spec.split_once("..") {
        if let (Ok(a), Ok(b)) = (a.parse::<i64>(), b.parse::<i64>()) {
            if (a - b).abs() > 63 {
                return None;
            }
            if a <= b {
                (a..=b).map(Term::Int).collect()
            } else {
                (b..=a).rev().map(Term::Int).collect()
            }
        } else {
            let (a, b) = (single(a)?, single(b)?);
            let chars: Vec<char> = if a <= b {
                (a..=b).collect()
            } else {
                (b..=a).rev().collect()
            };
            chars.iter().map(|c| Term::atom(&c.to_string())).collect()
        }
    } else {
        spec.split(',')
            .filter(|s| !s.is_empty())
            .map(|s| crate::syntax::parse_term(s).ok().map(|r| r.term))
            .collect::<Option<Vec<Term>>>()?
    };
    (!out.is_empty() && out.len() <= 64 && out.iter().all(Term::is_ground)).then_some(out)
}

fn single(s: &str) -> Option<char> {
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        (Some(c), None) if c.is_ascii_lowercase() => Some(c),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// text

impl Layout {
    /// The layout as text (`sidl play`): a board as a grid with its coordinates (an empty square
    /// `·`, an image as its text), a table as aligned columns under its title (`Title: none`
    /// without rows), a hand as one line.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Board {
                    columns,
                    rows,
                    squares,
                } => {
                    let cell = |p: &Option<Piece>| match p {
                        Some(p) => p.text.clone(),
                        None => "·".to_string(),
                    };
                    let w = columns
                        .iter()
                        .map(|c| c.width())
                        .chain(squares.iter().flatten().map(|p| cell(p).width()))
                        .max()
                        .unwrap_or(1);
                    let rw = rows.iter().map(|r| r.width()).max().unwrap_or(0);
                    let mut head = " ".repeat(rw);
                    for c in columns {
                        head.push(' ');
                        head.push_str(&pad(c, w));
                    }
                    out.push_str(head.trim_end());
                    out.push('\n');
                    for (r, row) in rows.iter().zip(squares) {
                        let mut line = format!("{}{}", " ".repeat(rw - r.width()), r);
                        for p in row {
                            line.push(' ');
                            line.push_str(&pad(&cell(p), w));
                        }
                        out.push_str(line.trim_end());
                        out.push('\n');
                    }
                }
                Part::Table { title, rows } if rows.is_empty() => {
                    out.push_str(&format!("{title}: none\n"));
                }
                Part::Table { title, rows } => {
                    out.push_str(title);
                    out.push('\n');
                    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
                    let widths: Vec<usize> = (0..n)
                        .map(|i| {
                            rows.iter()
                                .filter_map(|r| r.get(i))
                                .map(|c| c.width())
                                .max()
                                .unwrap_or(0)
                        })
                        .collect();
                    for row in rows {
                        let cells: Vec<String> =
                            row.iter().zip(&widths).map(|(c, w)| pad(c, *w)).collect();
                        out.push_str(format!("  {}", cells.join("  ")).trim_end());
                        out.push('\n');
                    }
                }
                Part::Hand { player, items } => {
                    let items: Vec<&str> = items.iter().map(|p| p.text.as_str()).collect();
                    out.push_str(&format!(
                        "hand of {player}: {}\n",
                        if items.is_empty() {
                            "(empty)".to_string()
                        } else {
                            items.join(" ")
                        }
                    ));
                }
            }
        }
        out
    }
}

/// `s` padded with spaces to `w` columns (display width).
fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(s.width())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_paths() {
        assert_eq!(
            range("3..1").unwrap(),
            vec![Term::Int(3), Term::Int(2), Term::Int(1)]
        );
        assert_eq!(range("a..c").unwrap().len(), 3);
        assert_eq!(
            range("a,b").unwrap(),
            vec![Term::atom("a"), Term::atom("b")]
        );
        assert!(range("1..100").is_none());
        assert!(safe_path("img/queen.svg"));
        for bad in [
            "",
            "/etc/passwd",
            "../x.png",
            "https://x.org/a.png",
            "a\\b",
            "a//b",
            "x\"onerror",
        ] {
            assert!(!safe_path(bad), "{bad}");
        }
    }

    #[test]
    fn hint_reads_as_a_board() {
        let Some(Ok(Spec::Board {
            x,
            y,
            columns,
            rows,
            blank,
            quiet,
            ..
        })) = board_hint("/* t\n   board: [cell, Y, X, M] x 1..3 y 1..3 blank blank */\n")
        else {
            panic!("no board")
        };
        assert_eq!(
            (x, y, columns.len(), rows.len(), blank.as_deref()),
            (1, 0, 3, 3, Some("blank"))
        );
        assert!(quiet.is_empty());
        assert!(matches!(
            board_hint("% board: [a, X] x 1..3 y 1..3\n"),
            Some(Err(_))
        ));
        assert!(board_hint("% no hint\n").is_none());
    }
}

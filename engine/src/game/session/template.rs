//! Action templates of unlimited switches: slots `(Name, Type)`, instantiating and filling them.

use super::*;

/// If `action` instantiates `template` (each slot `(Name, Type)` a value of its type; a variable of
/// the template stands for the same term at each of its occurrences), the action with each slot
/// value as the slot holds it ([`slot_value`]: an integer in a `double` slot becomes the equal float).
/// This is the one place that decides what a submitted action of an unlimited switch is.
pub fn instantiate_template(template: &Term, action: &Term) -> Option<Term> {
    let mut bound: Vec<(u32, &Term)> = Vec::new();
    if action.is_ground() {
        matches_template(template, action, &mut bound)
    } else {
        None
    }
}

fn matches_template<'a>(t: &Term, a: &'a Term, bound: &mut Vec<(u32, &'a Term)>) -> Option<Term> {
    if let Some((_, ty)) = slot(t) {
        return slot_value(ty, a);
    }
    match (t, a) {
        (Term::Var(v), a) => match bound.iter().find(|(w, _)| w == v) {
            Some((_, b)) => (*b == a).then(|| a.clone()),
            None => {
                bound.push((*v, a));
                Some(a.clone())
            }
        },
        (Term::Compound(f, targs), Term::Compound(g, aargs))
            if f == g && targs.len() == aargs.len() =>
        {
            let mut args = Vec::with_capacity(aargs.len());
            for (t, a) in targs.iter().zip(aargs.iter()) {
                args.push(matches_template(t, a, bound)?);
            }
            if args.iter().zip(aargs.iter()).all(|(x, y)| x == y) {
                // nothing converted: share the submitted term
                Some(a.clone())
            } else {
                Some(Term::Compound(*f, args.into()))
            }
        }
        (t, a) => (t == a).then(|| a.clone()),
    }
}

/// `(Name, Type)` with an atom type: a slot.
pub fn slot(t: &Term) -> Option<(&Term, Atom)> {
    match t {
        Term::Compound(f, args) if *f == atom::COMMA && args.len() == 2 => match &args[1] {
            Term::Atom(ty) if SLOT_TYPES.contains(&ty.name()) => Some((&args[0], *ty)),
            _ => None,
        },
        _ => None,
    }
}

/// Slot types (docs/semantics.md §4.4): `double` (a float; an integer is taken as the equal float),
/// `integer`, `number` (either, kept as written), `atom`, `term` (any ground term).
pub const SLOT_TYPES: &[&str] = &["double", "integer", "number", "atom", "term"];

/// What a value of the slot type `ty` is, for people (prompts, help texts, rejection messages of
/// every adapter): "a float such as 12.5 (an integer such as 12 is taken as 12.0)". Types that are
/// not slot types (see [`SLOT_TYPES`]) read as "a term without variables".
pub fn slot_type_description(ty: Atom) -> &'static str {
    match ty.name() {
        "double" => "a float such as 12.5 (an integer such as 12 is taken as 12.0)",
        "integer" => "an integer such as 3 (not 3.0)",
        "number" => "a number such as 3 or 12.5 (kept as written)",
        "atom" => "an atom such as red",
        _ => "a term without variables",
    }
}

/// The slot type a mistyped or foreign type name most likely means (`float` → `double`, `int` →
/// `integer`, `doubel` → `double`), for the "did you mean" of an unknown slot type.
pub fn suggest_slot_type(name: &str) -> Option<&'static str> {
    const ALIASES: &[(&str, &str)] = &[
        ("float", "double"),
        ("real", "double"),
        ("decimal", "double"),
        ("f64", "double"),
        ("int", "integer"),
        ("long", "integer"),
        ("i64", "integer"),
        ("nat", "integer"),
        ("natural", "integer"),
        ("num", "number"),
        ("numeric", "number"),
        ("symbol", "atom"),
        ("string", "atom"),
        ("any", "term"),
        ("ground", "term"),
    ];
    let lower = name.to_lowercase();
    if let Some((_, t)) = ALIASES.iter().find(|(a, _)| *a == lower) {
        return Some(t);
    }
    let limit = (name.chars().count() / 3).max(1);
    SLOT_TYPES
        .iter()
        .map(|t| (crate::analysis::lints::levenshtein(&lower, t), *t))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, t)| t)
}

/// A hole of an unlimited template that the player fills in: a slot `(Name, Type)`, or a variable
/// (which [`instantiate_template`] accepts as any ground term: no name, type `term`).
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateSlot {
    /// The slot's `Name` as written in the template (`None` for a variable).
    pub name: Option<Term>,
    /// One of [`SLOT_TYPES`].
    pub ty: Atom,
}

/// The holes of `template` in depth-first, left-to-right order (the order [`fill_template`] fills).
pub fn template_slots(template: &Term) -> Vec<TemplateSlot> {
    let mut out = Vec::new();
    let mut stack = vec![template];
    while let Some(t) = stack.pop() {
        if let Some((name, ty)) = slot(t) {
            out.push(TemplateSlot {
                name: Some(name.clone()),
                ty,
            });
            continue;
        }
        match t {
            Term::Var(_) => out.push(TemplateSlot {
                name: None,
                ty: Atom::new("term"),
            }),
            Term::Compound(_, args) => stack.extend(args.iter().rev()),
            _ => {}
        }
    }
    out
}

/// Replaces the holes of `template` (as listed by [`template_slots`]) by `values`, in order. `None` if
/// the number of values differs from the number of holes. The values are not type-checked here:
/// [`slot_value`] checks one value, [`Session::submit`] the whole action.
pub fn fill_template(template: &Term, values: &[Term]) -> Option<Term> {
    fn go(t: &Term, values: &mut std::slice::Iter<'_, Term>) -> Option<Term> {
        if slot(t).is_some() || matches!(t, Term::Var(_)) {
            return values.next().cloned();
        }
        match t {
            Term::Compound(f, args) => {
                let args: Option<Vec<Term>> = args.iter().map(|a| go(a, values)).collect();
                Some(Term::Compound(*f, args?.into()))
            }
            _ => Some(t.clone()),
        }
    }
    let mut it = values.iter();
    let out = go(template, &mut it)?;
    if it.next().is_some() {
        return None;
    }
    Some(out)
}

/// The value a slot of type `ty` holds when `v` is typed for it, or `None` if `v` is not a value of
/// that type (docs/semantics.md §4.4): a `double` takes a finite float, or an integer that
/// becomes the equal float (`2` is held as `2.0`; an integer no float equals, beyond 2^53, is
/// rejected); an `integer` takes an integer only (`2.0` is rejected); a `number` takes either, kept as
/// written; an `atom` an atom; a `term` any ground term. No slot takes a term holding +inf, -inf or
/// NaN. Every adapter goes through this rule (via
/// [`Session::submit`] and [`instantiate_template`]), so all accept and convert the same values.
pub fn slot_value(ty: Atom, v: &Term) -> Option<Term> {
    // +inf, -inf and NaN are no value a player can type (the syntax has no literal for them, JSON
    // cannot carry them), and the rules' arithmetic refuses them (`float_overflow`): no slot takes one
    let mut finite = true;
    v.walk(|t| finite &= !matches!(t, Term::Float(f) if !f.is_finite()));
    if !finite {
        return None;
    }
    match (ty.name(), v) {
        ("double", Term::Float(_)) => Some(v.clone()),
        ("double", Term::Int(i)) => {
            let f = *i as f64;
            (f as i128 == *i as i128).then_some(Term::Float(f))
        }
        ("integer", Term::Int(_)) => Some(v.clone()),
        ("number", Term::Int(_) | Term::Float(_)) => Some(v.clone()),
        ("atom", Term::Atom(_)) => Some(v.clone()),
        ("term", t) if t.is_ground() => Some(v.clone()),
        _ => None,
    }
}

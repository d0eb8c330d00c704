//! The fixed operator table (ISO plus the few SWI-Prolog operators SIDL games use). There is no
//! `op/3`: the table is part of the language definition (see docs/language.md). Priorities and types
//! are those of SWI-Prolog 9 (`current_op/3`), including its `|` at 1105, `:` at 600 and `xor` at 400.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpType {
    Xfx,
    Xfy,
    Yfx,
    Fy,
    Fx,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpDef {
    pub name: &'static str,
    pub priority: u16,
    pub typ: OpType,
}

use OpType::*;

const fn op(name: &'static str, priority: u16, typ: OpType) -> OpDef {
    OpDef {
        name,
        priority,
        typ,
    }
}

/// Infix operators.
pub const INFIX: &[OpDef] = &[
    op(":-", 1200, Xfx),
    op("-->", 1200, Xfx),
    op(";", 1100, Xfy),
    op("|", 1105, Xfy),
    op("->", 1050, Xfy),
    op("*->", 1050, Xfy),
    op(",", 1000, Xfy),
    op("=", 700, Xfx),
    op("\\=", 700, Xfx),
    op("==", 700, Xfx),
    op("\\==", 700, Xfx),
    op("@<", 700, Xfx),
    op("@>", 700, Xfx),
    op("@=<", 700, Xfx),
    op("@>=", 700, Xfx),
    op("=..", 700, Xfx),
    op("is", 700, Xfx),
    op("=:=", 700, Xfx),
    op("=\\=", 700, Xfx),
    op("<", 700, Xfx),
    op(">", 700, Xfx),
    op("=<", 700, Xfx),
    op(">=", 700, Xfx),
    op(":", 600, Xfy),
    op("+", 500, Yfx),
    op("-", 500, Yfx),
    op("/\\", 500, Yfx),
    op("\\/", 500, Yfx),
    op("xor", 400, Yfx),
    op("*", 400, Yfx),
    op("/", 400, Yfx),
    op("//", 400, Yfx),
    op("rem", 400, Yfx),
    op("mod", 400, Yfx),
    op("div", 400, Yfx),
    op("<<", 400, Yfx),
    op(">>", 400, Yfx),
    op("**", 200, Xfx),
    op("^", 200, Xfy),
];

/// Prefix operators.
pub const PREFIX: &[OpDef] = &[
    op(":-", 1200, Fx),
    op("?-", 1200, Fx),
    op("dynamic", 1150, Fx),
    op("discontiguous", 1150, Fx),
    op("initialization", 1150, Fx),
    op("multifile", 1150, Fx),
    op("\\+", 900, Fy),
    op("-", 200, Fy),
    op("+", 200, Fy),
    op("\\", 200, Fy),
];

pub fn infix(name: &str) -> Option<OpDef> {
    INFIX.iter().copied().find(|o| o.name == name)
}

pub fn prefix(name: &str) -> Option<OpDef> {
    PREFIX.iter().copied().find(|o| o.name == name)
}

pub fn is_op(name: &str) -> bool {
    infix(name).is_some() || prefix(name).is_some()
}

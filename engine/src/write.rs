//! TEMPORARY stub (replaced by the writer branch).
use crate::term::Term;
pub fn canonical(t: &Term) -> String { format!("{t:?}") }
pub fn writeq(t: &Term, _names: Option<&[String]>) -> String { format!("{t:?}") }

//! Type checks: `var/1`, `nonvar/1`, `atom/1`, `number/1`, `integer/1`, `float/1`, `atomic/1`,
//! `compound/1`, `callable/1`, `is_list/1`, `ground/1`, `string/1`.

use super::util::{det, list_shape, ListShape};
use crate::solve::store::Cell;

pub fn register(add: &mut dyn FnMut(&str, u32, super::Builtin)) {
    add("var", 1, |c, a, _| {
        Ok(det(matches!(c.store.deref(a[0]), Cell::Ref(_))))
    });
    add("nonvar", 1, |c, a, _| {
        Ok(det(!matches!(c.store.deref(a[0]), Cell::Ref(_))))
    });
    add("atom", 1, |c, a, _| {
        Ok(det(matches!(c.store.deref(a[0]), Cell::Atom(_))))
    });
    add("number", 1, |c, a, _| {
        Ok(det(matches!(
            c.store.deref(a[0]),
            Cell::Int(_) | Cell::Float(_)
        )))
    });
    add("integer", 1, |c, a, _| {
        Ok(det(matches!(c.store.deref(a[0]), Cell::Int(_))))
    });
    add("float", 1, |c, a, _| {
        Ok(det(matches!(c.store.deref(a[0]), Cell::Float(_))))
    });
    add("atomic", 1, |c, a, _| {
        Ok(det(c.store.deref(a[0]).is_atomic()))
    });
    add("compound", 1, |c, a, _| {
        Ok(det(matches!(
            c.store.deref(a[0]),
            Cell::Struct(_) | Cell::List(_)
        )))
    });
    add("callable", 1, |c, a, _| {
        Ok(det(matches!(
            c.store.deref(a[0]),
            Cell::Atom(_) | Cell::Struct(_) | Cell::List(_)
        )))
    });
    add("is_list", 1, |c, a, _| {
        Ok(det(matches!(
            list_shape(c.store, a[0]),
            ListShape::Proper(_)
        )))
    });
    add("ground", 1, |c, a, _| Ok(det(c.store.is_ground(a[0]))));
    add("string", 1, |c, a, _| {
        Ok(det(matches!(c.store.deref(a[0]), Cell::Str(_))))
    });
}

//! Unit tests of the memo table.

use super::*;

fn key(pred: u64, a: u64) -> FlatKey {
    let mut w = [0; FLAT_WORDS];
    w[0] = pred;
    w[1] = a;
    FlatKey {
        hash: mix(mix(0, a), pred),
        w,
    }
}

#[test]
fn cache_agrees_with_the_map() {
    let mut t = MemoTable::default();
    let (a, b) = (key(7, 1), key(7, 2));
    assert_eq!(t.get_flat(&a), None);
    t.insert(MemoKey::Flat(a), 3);
    assert_eq!(t.get_flat(&a), Some(3));
    assert_eq!(t.get_flat(&a), Some(3)); // now from the cache
    assert_eq!(t.get_flat(&b), None);
    // a key entered again (a nested fill of the same call) takes its new entry
    t.insert(MemoKey::Flat(a), MEMO_THROWS);
    assert_eq!(t.get_flat(&a), Some(MEMO_THROWS));
    // keys sharing a slot evict each other, and both are still found
    let mut c = key(7, 3);
    c.hash = a.hash.wrapping_add(MEMO_CACHE_SLOTS as u64);
    t.insert(MemoKey::Flat(c), 5);
    assert_eq!(t.get_flat(&a), Some(MEMO_THROWS));
    assert_eq!(t.get_flat(&c), Some(5));
    t.clear();
    assert_eq!(t.get_flat(&a), None);
    assert_eq!(t.get_flat(&c), None);
    // generations wrap without reviving old slots
    t.insert(MemoKey::Flat(b), 9);
    t.gen = u32::MAX;
    t.insert(MemoKey::Flat(a), 4);
    t.clear();
    assert_eq!(t.get_flat(&a), None);
    assert_eq!(t.get_flat(&b), None);
}

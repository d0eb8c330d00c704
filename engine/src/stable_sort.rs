//! One stable sort for the engine's cold call sites (diagnostics, traces, analyses, the AI's
//! bookkeeping, name lists).
//!
//! Each closure passed to the standard library's `sort_by`/`sort_by_key`/`sort` is a copy of its
//! stable sort (about 6.5 KB of wasm per call site: merge runs, quicksort, small sorts). The
//! functions here sort a permutation of indices with one instantiation of that sort, comparing
//! through a `dyn` closure, then move the elements into place: the same stable order, one copy of
//! the sort for every site. Hot paths (`sort/2`'s pairs, the fact set's touched keys) keep their
//! own instantiations.

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, stably (equal elements keep their order), as `v.sort_by(cmp)` would.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = {
        let items: &[T] = v;
        stable_order(items.len(), &mut |a, b| cmp(&items[a], &items[b]))
    };
    permute(v, order);
}

/// Sorts `v` by the key `f` gives, stably, as `v.sort_by_key(f)` would.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut f: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| f(a).cmp(&f(b)));
}

/// Sorts `v` in its natural order, stably, as `v.sort()` would.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// The stable order of `n` elements under `cmp` (on their indices): `order[i]` is the index of
/// the element that belongs at position `i`. The one instantiation of the standard library's
/// stable sort behind every function of this module.
#[inline(never)]
fn stable_order(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Moves `v[order[i]]` to position `i` for every `i`, in place, following each cycle of the
/// permutation once (`order` is consumed as the record of the positions done).
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    for start in 0..v.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start || from == at {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random pairs (key, serial) from a fixed linear congruential sequence.
    fn pairs(n: usize, keys: u64, seed: u64) -> Vec<(u64, usize)> {
        let mut x = seed;
        (0..n)
            .map(|i| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((x >> 33) % keys, i)
            })
            .collect()
    }

    #[test]
    fn agrees_with_the_standard_library_stable_sort() {
        for n in [0, 1, 2, 3, 7, 8, 19, 64, 300, 2000] {
            for keys in [1, 2, 5, 1000] {
                for seed in 1..4 {
                    let v = pairs(n, keys, seed);
                    let mut ours = v.clone();
                    let mut std = v.clone();
                    sort_by_key(&mut ours, |p| p.0);
                    std.sort_by_key(|p| p.0);
                    assert_eq!(ours, std, "n {n} keys {keys} seed {seed}");
                    let mut ours = v.clone();
                    let mut std = v;
                    sort_by(&mut ours, |a, b| b.0.cmp(&a.0));
                    std.sort_by_key(|p| std::cmp::Reverse(p.0));
                    assert_eq!(ours, std, "descending: n {n} keys {keys} seed {seed}");
                }
            }
        }
    }

    #[test]
    fn sorts_owned_values_without_losing_any() {
        let mut v: Vec<String> = ["pear", "apple", "fig", "apple", "kiwi", "banana"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut expected = v.clone();
        expected.sort();
        sort(&mut v);
        assert_eq!(v, expected);
    }
}

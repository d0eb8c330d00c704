//! The seeded random number generator of a game (docs/semantics.md §7.1).
//!
//! The algorithm is part of the replay contract: the same seed must draw the same numbers natively and
//! in WASM, so everything here is plain 64-bit integer arithmetic, fully specified below.
//!
//! - **Generator**: xoshiro256** (Blackman & Vigna, 2018), the reference `next()`:
//!   `result = rotl(s1 * 5, 7) * 9; t = s1 << 17; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t;
//!   s3 = rotl(s3, 45)` (all arithmetic wrapping mod 2^64).
//! - **Seeding**: the four state words are the first four outputs of SplitMix64 started at the u64 seed
//!   (`x += 0x9E3779B97F4A7C15; z = x; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
//!   z = (z ^ (z >> 27)) * 0x94D049BB133111EB; z ^ (z >> 31)`). SplitMix64 never yields four zero words,
//!   so every seed (including 0) gives a valid state.
//! - **`below(n)`**, a uniform integer in `[0, n)`: Lemire's multiply-and-reject method. Draw `x`, let
//!   `m = x * n` as a 128-bit product and `l = m mod 2^64`; if `l < n`, compute `t = (2^64 - n) mod n`
//!   and while `l < t` draw again (`x`, `m`, `l` anew). The result is `m >> 64`. `below(0)` and
//!   `below(1)` return 0 without drawing.
//! - **`next_f64()`**, uniform in `[0, 1)`: `(next_u64() >> 11) * 2^-53` (53 random bits, exact).
//! - **`next_f64_open()`**, uniform in `(0, 1)` (SWI-Prolog's `random_float`): `next_f64()` drawn again
//!   while it is 0.0.

/// xoshiro256** with SplitMix64 seeding. Cloning it forks the stream (used for undo/replay snapshots).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    pub state: [u64; 4],
}

fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator seeded from `seed` through SplitMix64.
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let state = [
            splitmix64(&mut x),
            splitmix64(&mut x),
            splitmix64(&mut x),
            splitmix64(&mut x),
        ];
        Rng { state }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `[0, n)` (Lemire's method, see the module doc); 0 when `n <= 1`.
    pub fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        let mut m = (self.next_u64() as u128) * (n as u128);
        let mut l = m as u64;
        if l < n {
            let t = n.wrapping_neg() % n;
            while l < t {
                m = (self.next_u64() as u128) * (n as u128);
                l = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// A uniform float in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform float in `(0, 1)`: `next_f64` redrawn while it is zero.
    pub fn next_f64_open(&mut self) -> f64 {
        loop {
            let f = self.next_f64();
            if f != 0.0 {
                return f;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values computed independently with this Python 3 script (run once):
    //
    //   M = (1 << 64) - 1
    //   def splitmix(s):
    //       while True:
    //           s = (s + 0x9E3779B97F4A7C15) & M; z = s
    //           z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    //           z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    //           yield z ^ (z >> 31)
    //   def rotl(x, k): return ((x << k) | (x >> (64 - k))) & M
    //   def xo(seed):
    //       g = splitmix(seed); s = [next(g) for _ in range(4)]
    //       while True:
    //           r = (rotl((s[1] * 5) & M, 7) * 9) & M; t = (s[1] << 17) & M
    //           s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45)
    //           yield r
    //   def below(g, n):
    //       x = next(g); m = x * n; l = m & M
    //       if l < n:
    //           t = ((1 << 64) - n) % n
    //           while l < t: x = next(g); m = x * n; l = m & M
    //       return m >> 64
    //   for seed in [0, 42, M]: g = xo(seed); print([hex(next(g)) for _ in range(4)])
    //   g = xo(7); print([below(g, 6) for _ in range(10)])
    //   g = xo(7); print([(next(g) >> 11) * 2.0 ** -53 for _ in range(3)])
    //
    // SplitMix64 from 0 starts 0xe220a8397b1dcdaf, its published reference value.

    #[test]
    fn xoshiro_reference_values() {
        let cases: [(u64, [u64; 4]); 3] = [
            (
                0,
                [
                    0x99ec5f36cb75f2b4,
                    0xbf6e1f784956452a,
                    0x1a5f849d4933e6e0,
                    0x6aa594f1262d2d2c,
                ],
            ),
            (
                42,
                [
                    0x15780b2e0c2ec716,
                    0x6104d9866d113a7e,
                    0xae17533239e499a1,
                    0xecb8ad4703b360a1,
                ],
            ),
            (
                u64::MAX,
                [
                    0x8f5520d52a7ead08,
                    0xc476a018caa1802d,
                    0x81de31c0d260469e,
                    0xbf658d7e065f3c2f,
                ],
            ),
        ];
        for (seed, expected) in cases {
            let mut r = Rng::new(seed);
            let got: Vec<u64> = (0..4).map(|_| r.next_u64()).collect();
            assert_eq!(got, expected, "seed {seed}");
        }
        let mut x = 0;
        assert_eq!(splitmix64(&mut x), 0xe220a8397b1dcdaf);
    }

    #[test]
    fn below_reference_values() {
        let mut r = Rng::new(7);
        let got: Vec<u64> = (0..10).map(|_| r.below(6)).collect();
        assert_eq!(got, [4, 1, 5, 5, 5, 5, 0, 0, 2, 0]);
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
        for n in [2u64, 3, 1000, u64::MAX] {
            assert!(r.below(n) < n);
        }
    }

    #[test]
    fn f64_reference_values() {
        let mut r = Rng::new(7);
        let got: Vec<f64> = (0..3).map(|_| r.next_f64()).collect();
        assert_eq!(
            got,
            [0.7005764821796896, 0.2787512294737843, 0.8396274618764198]
        );
        for _ in 0..1000 {
            let f = r.next_f64_open();
            assert!(f > 0.0 && f < 1.0);
        }
    }
}

//! The seeded random number generator (placeholder: being written).
pub struct Rng {
    pub state: [u64; 4],
}

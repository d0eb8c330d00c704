//! TEMPORARY stub (replaced by the builtins branch).
pub struct Rng { pub state: [u64; 4] }
impl Rng { pub fn new(seed: u64) -> Rng { Rng { state: [seed, 1, 2, 3] } } }

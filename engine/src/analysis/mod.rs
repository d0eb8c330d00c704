//! Static and dynamic analyses of games.
//!
//! - [`hidden_static`]: Def.1 §11 by abstract interpretation of the keyword rules (`W0501`).
//! - [`hidden_dynamic`]: Def.1 §11 by exploring reachable states, with counterexamples.

pub mod hidden_dynamic;
pub mod hidden_static;

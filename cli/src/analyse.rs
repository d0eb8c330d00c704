//! `sidl export GAME --efg|--nfg` and `sidl solve GAME`: the extensive form of a game
//! (`sidl_engine::analysis::extensive`, docs/analysis.md) written in Gambit's formats, and its
//! equilibria.

use crate::commands::load_game;
use crate::render;
use sidl_engine::analysis::extensive::{self, efg, nfg, BuildLimits, Tree};
use std::path::Path;
use std::sync::Arc;

/// Loads the game and builds its tree; on an error prints it and returns the exit code.
fn tree(path: &Path, limits: BuildLimits) -> Result<Tree, u8> {
    let name = path.display().to_string();
    let (game, src) = load_game(path)?;
    extensive::build(Arc::clone(&game), limits).map_err(|e| {
        render::runtime_error(&name, &src, &e, "");
        2
    })
}

/// `sidl export`: the `.efg` (or with `nfg` the `.nfg`) to `out` or stdout. Exit 0, 1 (load error or
/// an unwritable file), 2 (the tree cannot be built, or `--nfg` of a game that is not one-shot).
pub fn export(path: &Path, nfg_form: bool, out: Option<&Path>, max_nodes: usize) -> u8 {
    let limits = BuildLimits {
        max_nodes,
        ..BuildLimits::default()
    };
    let t = match tree(path, limits) {
        Ok(t) => t,
        Err(c) => return c,
    };
    let text = if nfg_form {
        match nfg::strategic(&t) {
            Ok(g) => efg::to_nfg(&g),
            Err(e) => {
                let src = std::fs::read_to_string(path).unwrap_or_default();
                render::runtime_error(&path.display().to_string(), &src, &e, "");
                return 2;
            }
        }
    } else {
        efg::to_efg(&t)
    };
    match out {
        None => {
            print!("{text}");
            0
        }
        Some(o) => match std::fs::write(o, text) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", o.display());
                1
            }
        },
    }
}

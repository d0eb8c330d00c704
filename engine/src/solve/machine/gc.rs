//! Garbage collection: sliding mark-compact of the heap above the newest choicepoint.

use super::*;

/// The heap size below which no garbage collection runs. Debug builds collect far more often, so
/// that every test exercises the collector.
pub(super) const GC_MIN: usize = if cfg!(debug_assertions) {
    1 << 14
} else {
    1 << 20
};

impl Machine {
    /// Compacts the heap above the newest choicepoint (and above `base`): a sliding mark-compact
    /// collection that keeps the order of the surviving cells, so every block (compound, list cell,
    /// clause environment) stays contiguous. Runs only between steps, when everything live is
    /// reachable from the current continuation or from trailed bindings of older cells.
    ///
    /// Roots: the frames on the current continuation chain created after the newest choicepoint
    /// (environments, goals, findall templates), and the values of cells below the region that were
    /// bound since the newest choicepoint (they are on the trail).
    pub(super) fn collect_garbage(&mut self, data: &ProgramData) {
        let h0 = self.cps.last().map_or(self.base, |c| c.heap).max(self.base) as usize;
        let top = self.store.heap.len();
        if top <= h0 {
            return;
        }
        let n = top - h0;
        let mut marked = vec![false; n];
        let mut todo: Vec<Cell> = Vec::new();
        let protected = self.protected();
        let trail_from = self.cps.last().map_or(0, |c| c.trail) as usize;
        let heap = &self.store.heap;
        // mark `len` cells from `start` (a block), queueing their values
        let mark_block =
            |start: usize, len: usize, marked: &mut Vec<bool>, todo: &mut Vec<Cell>| {
                for a in start..start + len {
                    if a >= h0 && !marked[a - h0] {
                        marked[a - h0] = true;
                        todo.push(heap[a]);
                    }
                }
            };
        // roots: frames on the current chain above the protected ones
        let mut f = self.cur;
        while f != NO_FRAME && f >= protected && (f as usize) < self.frames.len() {
            let fr = self.frames[f as usize];
            match fr.kind {
                FrameKind::Body {
                    pred, clause, env, ..
                }
                | FrameKind::Sub {
                    pred, clause, env, ..
                } => {
                    let nvars = data.preds[pred as usize].clauses[clause as usize].nvars as usize;
                    mark_block(env as usize, nvars, &mut marked, &mut todo);
                }
                FrameKind::Goal { goal } => todo.push(goal),
                FrameKind::Collect { template, .. } => todo.push(template),
                _ => {}
            }
            f = fr.next;
        }
        // roots: bindings of older cells since the newest choicepoint
        for e in &self.store.trail[trail_from..] {
            if let TrailEntry::Bind(a) | TrailEntry::Value(a, _) = *e {
                if (a as usize) < h0 {
                    todo.push(heap[a as usize]);
                }
            }
        }
        while let Some(c) = todo.pop() {
            match c {
                Cell::Ref(a) => mark_block(a as usize, 1, &mut marked, &mut todo),
                Cell::List(p) => mark_block(p as usize, 2, &mut marked, &mut todo),
                Cell::Struct(p) => {
                    let arity = match heap.get(p as usize) {
                        Some(Cell::Functor(_, k)) => *k as usize,
                        _ => 0,
                    };
                    mark_block(p as usize, arity + 1, &mut marked, &mut todo);
                }
                _ => {}
            }
        }
        // new addresses
        let mut forward = vec![0u32; n];
        let mut live = 0u32;
        for i in 0..n {
            forward[i] = h0 as u32 + live;
            if marked[i] {
                live += 1;
            }
        }
        let fwd = |c: Cell| -> Cell {
            match c {
                Cell::Ref(a) if a as usize >= h0 => Cell::Ref(forward[a as usize - h0]),
                Cell::Struct(p) if p as usize >= h0 => Cell::Struct(forward[p as usize - h0]),
                Cell::List(p) if p as usize >= h0 => Cell::List(forward[p as usize - h0]),
                other => other,
            }
        };
        // slide the survivors down, updating their pointers
        let heap = &mut self.store.heap;
        for i in 0..n {
            if marked[i] {
                let v = fwd(heap[h0 + i]);
                heap[forward[i] as usize] = v;
            }
        }
        heap.truncate(h0 + live as usize);
        // update the roots
        let trail = &mut self.store.trail;
        for e in trail[trail_from..].iter() {
            if let TrailEntry::Bind(a) | TrailEntry::Value(a, _) = *e {
                if (a as usize) < h0 {
                    let v = fwd(heap[a as usize]);
                    heap[a as usize] = v;
                }
            }
        }
        // entries for cells of the region are not needed: backtracking truncates the region
        let mut k = trail_from;
        for i in trail_from..trail.len() {
            let keep = match trail[i] {
                TrailEntry::Bind(a) | TrailEntry::Value(a, _) => (a as usize) < h0,
                TrailEntry::Host(_) => true,
            };
            if keep {
                trail[k] = trail[i];
                k += 1;
            }
        }
        trail.truncate(k);
        let mut f = self.cur;
        while f != NO_FRAME && f >= protected && (f as usize) < self.frames.len() {
            let fr = &mut self.frames[f as usize];
            match &mut fr.kind {
                FrameKind::Body { env, .. } | FrameKind::Sub { env, .. } if *env as usize >= h0 => {
                    *env = forward[*env as usize - h0];
                }
                FrameKind::Goal { goal } => *goal = fwd(*goal),
                FrameKind::Collect { template, .. } => *template = fwd(*template),
                _ => {}
            }
            f = fr.next;
        }
        self.gc_runs += 1;
        self.gc_at = (self.store.heap.len() * 2).max(self.store.heap.len() + GC_MIN);
    }
}

//! Several `sidl serve` processes on one PostgreSQL database: one thread per process that keeps
//! its leases ([`Cluster::leases`] every [`LEASE_TICK`]: renew, claim the sessions of a dead
//! driver) and listens for the others' notifications, passing them to the session threads here:
//! a commit of another driver (`e:ID`) to the followers, a forwarded submission (`i:ID`) to the
//! driver. After a broken listening connection it reconnects and has every session here catch up.

use crate::api::App;
use crate::session::Cmd;
use crate::store::postgres::{PgStore, LEASE_TICK};
use crate::store::Cluster;
use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// Starts the thread.
pub fn start(app: Arc<App>, pg: Arc<PgStore>) {
    let spawned = std::thread::Builder::new()
        .name("cluster".into())
        .spawn(move || run(app, pg));
    if let Err(e) = spawned {
        eprintln!("sidl serve: cannot start the cluster thread: {e}");
    }
}

fn run(app: Arc<App>, pg: Arc<PgStore>) {
    let mut listener = None;
    let mut next_tick = Instant::now();
    loop {
        if listener.is_none() {
            match pg.listen() {
                Ok(l) => {
                    listener = Some(l);
                    // notifications may have been missed while not listening
                    for (_, live) in app.live_sessions() {
                        if live.driving.load(Ordering::SeqCst) {
                            let _ = live.tx.send(Cmd::Inbox);
                        } else {
                            live.refresh();
                        }
                    }
                }
                Err(e) => {
                    eprintln!("sidl serve: cannot listen for notifications: {e}");
                    std::thread::sleep(LEASE_TICK);
                }
            }
        }
        if let Some(l) = &mut listener {
            let wait = next_tick.saturating_duration_since(Instant::now());
            match l.wait(wait) {
                Ok(payloads) => dispatch(&app, &payloads),
                Err(e) => {
                    eprintln!("sidl serve: notifications: {e}; reconnecting");
                    listener = None;
                }
            }
        }
        if Instant::now() >= next_tick {
            next_tick = Instant::now() + LEASE_TICK;
            tick(&app, &pg);
        }
    }
}

fn dispatch(app: &App, payloads: &[String]) {
    let mut seen = HashSet::new();
    for p in payloads {
        if !seen.insert(p.as_str()) {
            continue;
        }
        let (kind, id) = p.split_at(p.find(':').map_or(0, |i| i + 1));
        let Some(live) = app.live(id) else {
            continue;
        };
        let driving = live.driving.load(Ordering::SeqCst);
        match kind {
            "e:" if !driving => live.refresh(),
            "i:" if driving => {
                let _ = live.tx.send(Cmd::Inbox);
            }
            _ => {}
        }
    }
}

/// Renews and claims leases; the session threads here drive exactly the sessions held.
fn tick(app: &App, pg: &PgStore) {
    let held: HashSet<String> = match pg.leases() {
        Ok(h) => h.into_iter().collect(),
        Err(e) => {
            // the leases run out unless renewed soon; the commits check them anyway
            eprintln!("sidl serve: leases: {e}");
            return;
        }
    };
    let live = app.live_sessions();
    for id in &held {
        match live.iter().find(|(k, _)| k == id) {
            Some((_, l)) if !l.driving.load(Ordering::SeqCst) => {
                let _ = l.tx.send(Cmd::Drive);
            }
            Some(_) => {}
            None => {
                if let Err(e) = app.start_session(id, true) {
                    eprintln!("sidl serve: session {id} does not start: {e}");
                }
            }
        }
    }
    for (id, l) in &live {
        if l.driving.load(Ordering::SeqCst) && !held.contains(id) {
            let _ = l.tx.send(Cmd::Follow);
        }
    }
}

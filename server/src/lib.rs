//! `sidl serve`: sessions of SIDL3.0 games played by several people on several machines
//! (docs/serve.md). An adapter like the CLI: every rule is the engine's; this crate stores, times,
//! authorises and carries messages.
//!
//! Files: `config.rs` (a session's configuration and its check against the game), `store.rs` (the
//! storage interface), `store/sqlite.rs` and `store/postgres.rs` (its backends), `cluster.rs`
//! (several processes on one PostgreSQL: leases and notifications), `session.rs` (the thread that
//! owns a live session), `export.rs` (the data exports), `monitor.rs` (the experimenter's monitor; its actions run in
//! `session/admin.rs`), `api.rs` (the HTTP routes and the participants' WebSocket), `dto.rs` (what the
//! pages receive), `error.rs` (the error shape), `assets.rs` and `assets/` (the pages).

pub mod api;
mod assets;
pub mod bots;
mod cluster;
pub mod config;
pub mod dto;
pub mod error;
pub mod export;
pub mod monitor;
pub mod observe;
pub mod origin;
pub mod room;
pub mod session;
pub mod store;

use api::App;
use config::{CreateRequest, DisconnectSpec, GroupsSpec, SessionConfig, TimeoutSpec};
use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use store::Store;

/// The default port of `sidl serve` (fixed, so that links stay valid across restarts).
pub const DEFAULT_PORT: u16 = 8790;
/// The environment variable that sets the admin token.
pub const TOKEN_ENV: &str = "SIDL_ADMIN_TOKEN";

/// The options of `sidl serve` (also `sidl-serve`).
#[derive(clap::Args, Clone, Debug)]
pub struct ServeArgs {
    /// The folder of the database (`sidl.db`, SQLite)
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub data: PathBuf,
    /// A PostgreSQL database instead of SQLite (`postgres://USER:PASSWORD@HOST/DB`, or
    /// `postgres:///DB?host=/SOCKET/DIR`); several processes may share it
    #[arg(long, value_name = "URL", conflicts_with = "data")]
    pub database: Option<String>,
    /// The port to listen on (0: any free port)
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// An origin (`https://host[:port]`) whose pages may use the participant links (the
    /// `<sidl-game server=… link=…>` element), besides the server's own pages (repeatable; `*`:
    /// any; more in SIDL_ALLOW_ORIGIN, comma-separated)
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origins: Vec<String>,
    /// Create a session of this game at start (its links are printed)
    #[arg(long, value_name = "GAME")]
    pub create: Option<PathBuf>,
    /// With --create: a seat, `PLAYER=human|random|minimax:DEPTH|mcts:ITERATIONS` (repeatable;
    /// players not named are human)
    #[arg(long = "seat", value_name = "PLAYER=KIND", requires = "create")]
    pub seats: Vec<String>,
    /// With --create: the seed (default: random)
    #[arg(long, requires = "create")]
    pub seed: Option<u64>,
    /// With --create: the length of a chronon in seconds
    #[arg(long, value_name = "SECONDS", requires = "create")]
    pub chronon_seconds: Option<f64>,
    /// With --create: interrupt mode (every submission runs its own transition)
    #[arg(long, requires = "create")]
    pub interrupt: bool,
    /// With --create: the language of the game's labels on the participants' pages (e.g. `de`)
    #[arg(long, value_name = "LANG", requires = "create")]
    pub lang: Option<String>,
    /// With --create: when a human does not act by the deadline: `default` (the game's default),
    /// `wait`, or `ai:SECONDS:SPEC` (an AI acts for the seat after SECONDS)
    #[arg(
        long,
        value_name = "POLICY",
        default_value = "default",
        requires = "create"
    )]
    pub timeout: String,
    /// With --create: the session's name
    #[arg(long, requires = "create")]
    pub name: Option<String>,
    /// With --create: how many groups (a number), or `arrival` (as many as arrive; needs --room)
    #[arg(long, value_name = "N|arrival", requires = "create")]
    pub groups: Option<String>,
    /// With --create: the room's name: participants join through `/room/NAME`
    #[arg(long, value_name = "NAME", requires = "create")]
    pub room: Option<String>,
    /// With --create: an expected participant label (repeatable; then only these are admitted)
    #[arg(long = "label", value_name = "LABEL", requires = "room")]
    pub labels: Vec<String>,
    /// With --create: what happens to a disconnected human seat: `wait`, `default:SECONDS` (the
    /// game's default after SECONDS) or `ai:SECONDS:SPEC` (an AI plays it after SECONDS)
    #[arg(
        long,
        value_name = "POLICY",
        default_value = "wait",
        requires = "create"
    )]
    pub disconnect: String,
    #[command(subcommand)]
    pub command: Option<ServeCommand>,
}

/// `sidl serve export …`, `sidl serve bots …`: tools around a server's sessions.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum ServeCommand {
    /// Writes a session's data exports (event log, wide CSV, payments, replay record) from its
    /// database (docs/serve.md, "Data export")
    Export(ExportArgs),
    /// Plays a session's human seats through the server's HTTP/WebSocket API with scripted or
    /// random participants (docs/serve.md, "Bots")
    Bots(bots::BotsArgs),
}

/// The options of `sidl serve export`.
#[derive(clap::Args, Clone, Debug)]
pub struct ExportArgs {
    /// The session's id
    pub session: String,
    /// The folder of the database (`sidl.db`, SQLite)
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub data: PathBuf,
    /// A PostgreSQL database instead of SQLite
    #[arg(long, value_name = "URL", conflicts_with = "data")]
    pub database: Option<String>,
    /// Which export: events.csv, events.jsonl, wide.csv, payments.csv, record.jsonl (repeatable;
    /// default: all of them, which needs --out)
    #[arg(long = "format", value_name = "FORMAT")]
    pub formats: Vec<String>,
    /// Write each export to DIR/sidl-SESSION-FORMAT (default: one export to standard output)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

fn open_store(data: &std::path::Path, database: Option<&str>) -> Result<Arc<dyn Store>, String> {
    match database {
        Some(url) => {
            if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
                return Err(format!(
                    "--database {url}: a PostgreSQL URL (postgres://…) is expected"
                ));
            }
            let s = store::postgres::PgStore::open(url, &api::random_hex(6))
                .map_err(|e| format!("PostgreSQL: {e}"))?;
            Ok(Arc::new(s))
        }
        None => {
            let db = data.join("sidl.db");
            if !db.exists() {
                return Err(format!("no database {}", db.display()));
            }
            Ok(Arc::new(
                store::sqlite::SqliteStore::open(&db).map_err(|e| e.to_string())?,
            ))
        }
    }
}

/// `sidl serve export`.
pub fn run_export(args: &ExportArgs) -> Result<(), String> {
    let store = open_store(&args.data, args.database.as_deref())?;
    let formats: Vec<String> = if args.formats.is_empty() {
        export::FORMATS.iter().map(|f| f.to_string()).collect()
    } else {
        args.formats.clone()
    };
    let Some(dir) = &args.out else {
        let [f] = formats.as_slice() else {
            return Err(
                "without --out, name one --format (the export goes to standard output)".into(),
            );
        };
        let text = export::export(store.as_ref(), &args.session, f).map_err(|e| e.message)?;
        print!("{text}");
        return Ok(());
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for f in &formats {
        let text = export::export(store.as_ref(), &args.session, f).map_err(|e| e.message)?;
        let path = dir.join(format!("sidl-{}-{f}", args.session));
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("{}", path.display());
    }
    Ok(())
}

fn create_request(args: &ServeArgs) -> Result<Option<CreateRequest>, String> {
    let Some(path) = &args.create else {
        return Ok(None);
    };
    let game = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut seats = BTreeMap::new();
    for s in &args.seats {
        let (p, k) = s
            .split_once('=')
            .ok_or_else(|| format!("--seat {s}: write PLAYER=KIND"))?;
        seats.insert(p.trim().to_string(), k.trim().to_string());
    }
    let timeout = match args.timeout.as_str() {
        "default" | "wait" => TimeoutSpec::Named(args.timeout.clone()),
        t => {
            let rest = t
                .strip_prefix("ai:")
                .ok_or_else(|| format!("--timeout {t}: default, wait or ai:SECONDS:SPEC"))?;
            let (secs, spec) = rest
                .split_once(':')
                .ok_or_else(|| format!("--timeout {t}: ai:SECONDS:SPEC, e.g. ai:30:mcts:200"))?;
            let after = secs
                .parse()
                .map_err(|_| format!("--timeout {t}: {secs} is not a number of seconds"))?;
            TimeoutSpec::Ai {
                ai: spec.to_string(),
                after,
            }
        }
    };
    let seconds = |what: &str, secs: &str| -> Result<f64, String> {
        secs.parse()
            .map_err(|_| format!("{what}: {secs} is not a number of seconds"))
    };
    let d = args.disconnect.as_str();
    let disconnect = if d == "wait" {
        DisconnectSpec::Named(d.into())
    } else if let Some(secs) = d.strip_prefix("default:") {
        DisconnectSpec::Default {
            after: seconds("--disconnect", secs)?,
        }
    } else if let Some(rest) = d.strip_prefix("ai:") {
        let (secs, spec) = rest
            .split_once(':')
            .ok_or_else(|| format!("--disconnect {d}: ai:SECONDS:SPEC, e.g. ai:30:mcts:200"))?;
        DisconnectSpec::Ai {
            ai: spec.to_string(),
            after: seconds("--disconnect", secs)?,
        }
    } else {
        return Err(format!(
            "--disconnect {d}: wait, default:SECONDS or ai:SECONDS:SPEC"
        ));
    };
    let groups = match args.groups.as_deref() {
        None => None,
        Some("arrival") => Some(GroupsSpec::Named("arrival".into())),
        Some(n) => Some(GroupsSpec::Count(n.parse().map_err(|_| {
            format!("--groups {n}: a number of groups or `arrival`")
        })?)),
    };
    Ok(Some(CreateRequest {
        game,
        config: SessionConfig {
            name: args.name.clone(),
            seed: args.seed,
            seats,
            interrupt: args.interrupt,
            lang: args.lang.clone(),
            chronon_seconds: args.chronon_seconds,
            timeout,
            groups,
            room: args.room.clone(),
            labels: args.labels.clone(),
            disconnect,
        },
    }))
}

/// Runs the server until Ctrl-C (or SIGTERM).
pub fn run(args: ServeArgs) -> Result<(), String> {
    match &args.command {
        Some(ServeCommand::Export(e)) => return run_export(e),
        Some(ServeCommand::Bots(b)) => return bots::run(b),
        None => {}
    }
    let create = create_request(&args)?;
    let origins = origin::Origins::new(
        &args.allow_origins,
        std::env::var(origin::ALLOW_ENV).ok().as_deref(),
    )
    .map_err(|e| format!("--allow-origin {e}"))?;
    let mut pg = None;
    let (store, where_): (Arc<dyn Store>, String) = match &args.database {
        Some(url) => {
            if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
                return Err(format!(
                    "--database {url}: a PostgreSQL URL (postgres://…) is expected"
                ));
            }
            let node = api::random_hex(6);
            let s = Arc::new(
                store::postgres::PgStore::open(url, &node)
                    .map_err(|e| format!("PostgreSQL: {e}"))?,
            );
            pg = Some(s.clone());
            (s, format!("PostgreSQL (process {node})"))
        }
        None => {
            std::fs::create_dir_all(&args.data)
                .map_err(|e| format!("cannot create {}: {e}", args.data.display()))?;
            let db = args.data.join("sidl.db");
            let s = Arc::new(store::sqlite::SqliteStore::open(&db).map_err(|e| e.to_string())?);
            (s, format!("{} (SQLite)", db.display()))
        }
    };
    // with one process every session that was running resumes here; with several, the sessions
    // are claimed through their leases (cluster.rs)
    let resume: Vec<store::SessionRow> = if pg.is_none() {
        store
            .sessions()
            .map_err(|e| e.to_string())?
            .into_iter()
            .filter(|r| r.state.status == "running")
            .collect()
    } else {
        Vec::new()
    };
    let admin_token = match std::env::var(TOKEN_ENV) {
        Ok(t) if !t.trim().is_empty() => t.trim().to_string(),
        _ => match store.meta("admin_token").map_err(|e| e.to_string())? {
            Some(t) => t,
            // the first process to store one wins (others may start at the same time)
            None => store
                .init_meta("admin_token", &api::random_hex(24))
                .map_err(|e| e.to_string())?,
        },
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let cluster_store = pg.clone();
    let result = rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.bind, args.port))
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", args.bind, args.port))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let base_url = format!("http://{addr}");
        let app = Arc::new(App {
            store: store.clone(),
            admin_token,
            base_url: base_url.clone(),
            live: Mutex::new(HashMap::new()),
            origins,
        });
        println!("sidl serve: data in {where_}");
        // every session that was running when the server stopped resumes
        let app2 = app.clone();
        tokio::task::spawn_blocking(move || {
            for row in resume {
                match app2.start_session(&row.id, true) {
                    Ok(()) => println!("sidl serve: resumed session {} ({})", row.id, row.name),
                    Err(e) => eprintln!("sidl serve: session {} does not resume: {e}", row.id),
                }
            }
        })
        .await
        .map_err(|e| e.to_string())?;
        if let Some(pg) = pg {
            cluster::start(app.clone(), pg);
        }
        if let Some(req) = create {
            let app2 = app.clone();
            let made = tokio::task::spawn_blocking(move || app2.create(&req))
                .await
                .map_err(|e| e.to_string())?
                .map_err(|e| e.to_string())?;
            println!(
                "sidl serve: created session {} ({})",
                made["id"].as_str().unwrap_or(""),
                made["name"].as_str().unwrap_or("")
            );
            if let Some(room) = made["room"].as_str() {
                println!("  room: {room}?participant_label=LABEL");
            }
            let groups = made["groups"].as_array().cloned().unwrap_or_default();
            let seats: Vec<serde_json::Value> = if groups.is_empty() {
                made["seats"].as_array().cloned().unwrap_or_default()
            } else {
                groups
                    .iter()
                    .flat_map(|g| g["seats"].as_array().cloned().unwrap_or_default())
                    .collect()
            };
            for s in &seats {
                let who = format!(
                    "{} ({})",
                    s["player"].as_str().unwrap_or(""),
                    s["kind"].as_str().unwrap_or("")
                );
                match s["link"].as_str() {
                    Some(l) => println!("  {who}: {l}"),
                    None => println!("  {who}"),
                }
            }
        }
        println!("sidl serve: listening on {base_url}");
        println!("admin: {base_url}/admin#token={}", app.admin_token);
        axum::serve(listener, api::router(app))
            .with_graceful_shutdown(shutdown())
            .await
            .map_err(|e| e.to_string())
    });
    // hand the sessions this process drove to the others at once (a process that dies instead
    // loses them when their leases pass)
    if let Some(pg) = cluster_store {
        if let Err(e) = store::Cluster::release(pg.as_ref()) {
            eprintln!("sidl serve: {e}");
        }
    }
    result
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}

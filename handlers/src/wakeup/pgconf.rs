//! Where a PostgreSQL store is and how to reach it: the `postgres://` URL, the password (URL,
//! `$PGPASSWORD`, `~/.pgpass`), TLS, and a connection that gives up after a bound instead of
//! waiting on a server that does not answer.
//!
//! Nothing here prints a password: every message names the server by [`PgTarget::display`],
//! the URL with its password removed.

use anyhow::{anyhow, bail, Context as _, Result};
use hookmux_sdk::Env;
use postgres::config::{Host, SslMode};
use std::path::PathBuf;
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// How long a `hookmux memory …` command waits for the server to accept a connection, unless
/// the URL's `connect_timeout` says otherwise.
pub const CLI_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether a store setting names a PostgreSQL server rather than a SQLite file.
pub fn is_url(setting: &str) -> bool {
    let lower = setting.trim_start().to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// How TLS is used, from the URL's `sslmode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tls {
    /// `sslmode=disable`, and the default for loopback addresses and Unix sockets.
    Disable,
    /// `sslmode=prefer`: TLS when the server offers it (and its certificate verifies).
    Prefer,
    /// `sslmode=require`, `verify-ca`, `verify-full`, and the default for every other host:
    /// TLS, with the server's certificate verified against the trusted roots and its name.
    Require,
}

/// Where a store URL came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `$LORE_DB`: the user's own environment.
    User,
    /// `.lore.yaml`'s `store.path`: a file that comes with the checkout.
    Project,
}

/// A PostgreSQL store's address, parsed and ready to connect.
#[derive(Clone)]
pub struct PgTarget {
    config: postgres::Config,
    tls: Tls,
    /// `sslrootcert`: PEM file of the certificate authorities to trust instead of the built-in roots.
    root_cert: Option<PathBuf>,
    display: String,
}

impl std::fmt::Debug for PgTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgTarget").field("url", &self.display).field("tls", &self.tls).finish()
    }
}

impl PartialEq for PgTarget {
    fn eq(&self, other: &PgTarget) -> bool {
        self.display == other.display && self.tls == other.tls
    }
}

impl Eq for PgTarget {}

impl PgTarget {
    /// Parses a `postgres://` or `postgresql://` URL. The password comes from the URL, else
    /// `$PGPASSWORD`, else the password file (`$PGPASSFILE`, default `~/.pgpass`); the user
    /// from the URL, else `$USER`.
    pub fn parse(setting: &str, env: &Env) -> Result<PgTarget> {
        PgTarget::parse_from(setting, env, Origin::User)
    }

    /// [`PgTarget::parse`] for a URL from `origin`. A URL from a checked-out `.lore.yaml` could
    /// name any server, so it is never handed `$PGPASSWORD` or a password-file line whose host is
    /// `*`: only a line naming its host exactly.
    pub fn parse_from(setting: &str, env: &Env, origin: Origin) -> Result<PgTarget> {
        let setting = setting.trim();
        // The driver parses the URL (it takes forms such as `postgresql://user@/db?host=/socket`
        // that a generic URL parser refuses); hookmux only takes out the TLS parameters.
        let (base, query) = split_query(setting);
        let display = redact(setting);
        let mut tls = None;
        let mut root_cert = None;
        let mut kept = url::form_urlencoded::Serializer::new(String::new());
        let mut any_kept = false;
        for (key, value) in url::form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
            match key.as_ref() {
                "sslmode" => {
                    tls = Some(match value.as_ref() {
                        "disable" => Tls::Disable,
                        "prefer" | "allow" => Tls::Prefer,
                        "require" | "verify-ca" | "verify-full" => Tls::Require,
                        other => bail!(
                            "{display}: sslmode `{other}` is not one of disable, prefer, require, verify-ca, \
                             verify-full"
                        ),
                    })
                }
                "sslrootcert" => root_cert = Some(PathBuf::from(value.as_ref())),
                _ => {
                    kept.append_pair(&key, &value);
                    any_kept = true;
                }
            }
        }
        let rest = kept.finish();
        let url = if any_kept { format!("{base}?{rest}") } else { base.to_string() };
        let mut config: postgres::Config =
            url.parse().map_err(|err| anyhow!("{display}: not a usable PostgreSQL URL ({err})"))?;
        // A password-file line is looked up for the first host, and TLS is decided by the host's
        // name: a checkout's URL that lists more hosts, or sends the connection elsewhere with
        // `hostaddr`, could have a password meant for one server sent to another.
        if origin == Origin::Project && (config.get_hosts().len() > 1 || !config.get_hostaddrs().is_empty()) {
            bail!(
                "{display}: a store URL in a project's .lore.yaml names one host, without `hostaddr`; \
                 set such a URL in LORE_DB instead"
            );
        }
        if config.get_hosts().is_empty() {
            // A host that starts with `/` is a Unix-domain socket folder to the driver.
            config.host(hookmux_platform::dirs::postgres_socket_dir().unwrap_or("localhost"));
        }
        if config.get_user().is_none() {
            match env.get("USER").filter(|u| !u.is_empty()) {
                Some(user) => config.user(user),
                None => bail!("{display}: the URL names no user and $USER is not set; write postgres://USER@HOST/DB"),
            };
        }
        if config.get_password().is_none() {
            let from_env = match origin {
                Origin::User => env.get("PGPASSWORD").filter(|p| !p.is_empty()),
                Origin::Project => None,
            };
            if let Some(password) = from_env {
                config.password(password);
            } else if let Some(password) = pgpass_password(&config, env, origin) {
                config.password(password);
            }
        }
        let tls = tls.unwrap_or_else(|| if is_local(&config) { Tls::Disable } else { Tls::Require });
        config.ssl_mode(match tls {
            Tls::Disable => SslMode::Disable,
            Tls::Prefer => SslMode::Prefer,
            Tls::Require => SslMode::Require,
        });
        if config.get_application_name().is_none() {
            config.application_name("hookmux");
        }
        // A wake-up's queries touch a few thousand rows at most: starting a parallel worker
        // would cost more than the query. Sent with the connection, so it costs no round trip.
        let options = config.get_options().unwrap_or_default();
        if !options.contains("max_parallel_workers_per_gather") {
            config.options(format!("{options} -c max_parallel_workers_per_gather=0").trim_start());
        }
        Ok(PgTarget { config, tls, root_cert, display })
    }

    /// The URL without its password: what messages show.
    pub fn display(&self) -> &str {
        &self.display
    }

    pub fn tls(&self) -> Tls {
        self.tls
    }

    /// Connects, giving up after `bound` whatever the server does: a closed port fails at once,
    /// a server that accepts and never answers fails at the bound.
    pub fn connect(&self, bound: Duration) -> Result<postgres::Client> {
        let timeout = self.config.get_connect_timeout().copied().map_or(bound, |own| own.min(bound));
        let mut config = self.config.clone();
        config.connect_timeout(timeout);
        let tls = self.tls;
        let connector = match tls {
            Tls::Disable => None,
            Tls::Prefer | Tls::Require => Some(self.tls_connector()?),
        };
        let (sender, receiver) = mpsc::channel();
        // The connection runs on its own thread so that a server that never answers cannot hold
        // the caller past the bound; that thread ends with the process.
        std::thread::Builder::new()
            .name("hookmux-postgres-connect".to_string())
            .spawn(move || {
                let client = match connector {
                    None => config.connect(postgres::NoTls),
                    Some(connector) => config.connect(connector),
                };
                let _ = sender.send(client);
            })
            .context("cannot start a thread to connect")?;
        match receiver.recv_timeout(timeout) {
            Ok(Ok(client)) => Ok(client),
            Ok(Err(err)) => Err(anyhow!("cannot connect to {}: {}", self.display, describe(&err))),
            Err(_) => bail!("cannot connect to {}: no answer within {} ms", self.display, timeout.as_millis()),
        }
    }

    fn tls_connector(&self) -> Result<tokio_postgres_rustls::MakeRustlsConnect> {
        let mut roots = rustls::RootCertStore::empty();
        match &self.root_cert {
            Some(path) => {
                use rustls::pki_types::pem::PemObject as _;
                // A certificate file, not a FIFO or /dev/zero (the URL may come from a checkout).
                let meta = std::fs::metadata(path)
                    .map_err(|err| anyhow!("{}: cannot read sslrootcert {}: {err}", self.display, path.display()))?;
                if !meta.is_file() || meta.len() > 1 << 20 {
                    bail!(
                        "{}: sslrootcert {} is not a certificate file of at most 1 MiB",
                        self.display,
                        path.display()
                    );
                }
                let certs = rustls::pki_types::CertificateDer::pem_file_iter(path)
                    .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
                    .map_err(|err| anyhow!("{}: cannot read sslrootcert {}: {err}", self.display, path.display()))?;
                let (added, _) = roots.add_parsable_certificates(certs);
                if added == 0 {
                    bail!("{}: sslrootcert {} holds no usable certificate", self.display, path.display());
                }
            }
            None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        }
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|err| anyhow!("cannot set up TLS: {err}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
    }
}

/// The driver's error with its cause (the server's message, or the socket's), never the URL.
fn describe(err: &postgres::Error) -> String {
    if let Some(db) = err.as_db_error() {
        return format!("{} ({})", db.message(), db.code().code());
    }
    let mut text = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text = format!("{text}: {cause_text}");
        }
        source = cause.source();
    }
    text
}

/// A PostgreSQL error as one line: the server's message and SQLSTATE when there is one.
pub fn error_line(err: &postgres::Error) -> String {
    describe(err)
}

/// The URL's parts before and after its query. The credentials are read as the driver reads
/// them, up to the first `@`, so a `?` or `/` in a password never starts the query or the path.
fn split_query(setting: &str) -> (&str, Option<&str>) {
    let after_credentials = match setting.split_once("://") {
        Some((scheme, rest)) => scheme.len() + 3 + rest.find('@').map_or(0, |at| at + 1),
        None => 0,
    };
    match setting[after_credentials..].find('?') {
        Some(at) => (&setting[..after_credentials + at], Some(&setting[after_credentials + at + 1..])),
        None => (setting, None),
    }
}

/// The URL as messages show it: no password, no `password=` parameter. The `user:password`
/// part is what the driver takes: everything up to the first `@`, a `/` or `?` in the password
/// included.
pub fn redact(setting: &str) -> String {
    let Some((scheme, rest)) = setting.split_once("://") else { return "(not a URL)".to_string() };
    let (user, rest) = match rest.split_once('@') {
        Some((userinfo, rest)) => (Some(userinfo.split_once(':').map_or(userinfo, |(user, _)| user)), rest),
        None => (None, rest),
    };
    let (base, query) = match rest.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (rest, None),
    };
    let shown_base = match user {
        Some(user) => format!("{scheme}://{user}@{base}"),
        None => format!("{scheme}://{base}"),
    };
    let Some(query) = query else { return shown_base };
    let mut kept = url::form_urlencoded::Serializer::new(String::new());
    let mut any = false;
    for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
        if key != "password" {
            kept.append_pair(&key, &value);
            any = true;
        }
    }
    if any {
        format!("{shown_base}?{}", kept.finish())
    } else {
        shown_base
    }
}

/// Loopback addresses and Unix sockets: no TLS unless the URL asks for it.
fn is_local(config: &postgres::Config) -> bool {
    // `hostaddr=` is where the driver connects, whatever the host name says.
    if !config.get_hostaddrs().is_empty() {
        return config.get_hostaddrs().iter().all(|ip| ip.is_loopback());
    }
    // Every host is a loopback name or a Unix-domain socket (which only the OSes that have them
    // know as a host).
    !config.get_hosts().iter().any(|host| matches!(host, Host::Tcp(name) if !is_loopback_name(name)))
}

fn is_loopback_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("localhost")
        || name.trim_matches(['[', ']']).parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The password file's entry for this connection: `host:port:database:user:password` lines,
/// `*` matching anything, `\:` and `\\` escaped, as libpq reads them. A file others can read is
/// ignored, as libpq does.
fn pgpass_password(config: &postgres::Config, env: &Env, origin: Origin) -> Option<String> {
    let file = env.path("PGPASSFILE").or_else(|| hookmux_platform::dirs::home(env).map(|home| home.join(".pgpass")))?;
    let text = std::fs::read_to_string(&file).ok()?;
    if std::fs::metadata(&file).is_ok_and(|meta| hookmux_platform::fs::open_to_others(&meta)) {
        eprintln!("hookmux: {} is readable by others; its passwords are ignored (chmod 600 it)", file.display());
        return None;
    }
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(name)) => name.clone(),
        _ => "localhost".to_string(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432).to_string();
    let user = config.get_user().unwrap_or_default();
    let database = config.get_dbname().unwrap_or(user);
    let text = match origin {
        Origin::User => text,
        Origin::Project => {
            text.lines().filter(|line| !line.trim_start().starts_with("*:")).collect::<Vec<_>>().join("\n")
        }
    };
    pgpass_lookup(&text, [&host, &port, database, user])
}

/// The password of the first line matching `wanted` (host, port, database, user).
pub fn pgpass_lookup(text: &str, wanted: [&str; 4]) -> Option<String> {
    for line in text.lines() {
        if line.trim_start().starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields = split_pgpass(line);
        if fields.len() != 5 {
            continue;
        }
        if fields.iter().zip(wanted).all(|(field, value)| field == "*" || field == value) {
            return Some(fields[4].clone());
        }
    }
    None
}

fn split_pgpass(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let (Some(next), Some(field)) = (chars.next(), fields.last_mut()) {
                    field.push(next);
                }
            }
            // The password, the fifth field, may hold unescaped colons.
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => {
                if let Some(field) = fields.last_mut() {
                    field.push(c);
                }
            }
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Env {
        pairs.iter().map(|(k, v)| (*k, std::ffi::OsStr::new(v))).collect()
    }

    #[test]
    fn the_password_never_shows_in_the_display() {
        let target = PgTarget::parse("postgres://alice:s3cr%40t@db.example.com:6543/lore?password=x2", &env(&[]))
            .expect("parses");
        assert_eq!(target.display(), "postgres://alice@db.example.com:6543/lore");
        assert_eq!(redact("postgresql://u:p:w@/db?host=%2Fsock&password=x"), "postgresql://u@/db?host=%2Fsock");
        assert_eq!(redact("not a url"), "(not a URL)");
        // The driver takes everything up to the first `@` as the credentials.
        assert_eq!(redact("postgres://alice:pa/ss@db.example.com/lore"), "postgres://alice@db.example.com/lore");
        assert_eq!(
            redact("postgres://alice:pa?ss@db.example.com/lore?sslmode=require"),
            "postgres://alice@db.example.com/lore?sslmode=require"
        );
        assert_eq!(
            split_query("postgres://alice:pa?ss@db/lore?sslmode=require"),
            ("postgres://alice:pa?ss@db/lore", Some("sslmode=require"))
        );
        assert!(!format!("{target:?}").contains("s3cr"));
        assert_eq!(target.tls(), Tls::Require, "a remote server gets TLS by default");
    }

    #[test]
    #[cfg_attr(not(unix), ignore = "a host that starts with / is a Unix-domain socket only where there are some")]
    fn a_unix_socket_defaults_to_no_tls() {
        let socket = PgTarget::parse("postgresql://lore@/lore?host=/var/run/postgresql", &env(&[])).unwrap();
        assert_eq!(socket.tls(), Tls::Disable, "a Unix socket: no TLS");
    }

    #[test]
    fn loopback_and_sockets_default_to_no_tls() {
        for url in ["postgres://a@127.0.0.1/x", "postgres://a@localhost/x", "postgresql://a@[::1]:5433/x"] {
            assert_eq!(PgTarget::parse(url, &env(&[])).expect(url).tls(), Tls::Disable, "{url}");
        }
        let forced = PgTarget::parse("postgres://a@127.0.0.1/x?sslmode=require", &env(&[])).expect("parses");
        assert_eq!(forced.tls(), Tls::Require);
        let err = PgTarget::parse("postgres://a:pw@127.0.0.1/x?sslmode=sometimes", &env(&[])).unwrap_err();
        assert!(err.to_string().contains("sslmode `sometimes`") && !err.to_string().contains("pw@"), "{err}");
    }

    #[test]
    fn the_user_defaults_to_the_login_and_a_url_is_told_from_a_path() {
        assert!(is_url("postgres://x") && is_url("PostgreSQL://x") && !is_url("/tmp/postgres://x"));
        assert!(PgTarget::parse("postgres://127.0.0.1/x", &env(&[])).is_err());
        assert!(PgTarget::parse("postgres://127.0.0.1/x", &env(&[("USER", "bob")])).is_ok());
    }

    #[test]
    fn pgpass_lines_match_like_libpq() {
        let text = "# comment\nother:5432:*:*:nope\ndb.example.com:*:lore:alice:pa\\:ss:word\n*:*:*:*:fallback\n";
        assert_eq!(pgpass_lookup(text, ["db.example.com", "6543", "lore", "alice"]).as_deref(), Some("pa:ss:word"));
        assert_eq!(pgpass_lookup(text, ["elsewhere", "1", "x", "y"]).as_deref(), Some("fallback"));
        assert_eq!(pgpass_lookup("a:b:c\n", ["a", "b", "c", "d"]), None);
    }

    #[test]
    fn pgpassword_then_the_password_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pgpass");
        std::fs::write(&file, "127.0.0.1:5432:lore:alice:from-file\n").unwrap();
        if let Some(private) = hookmux_platform::fs::permissions(hookmux_platform::fs::Access::Private) {
            std::fs::set_permissions(&file, private).unwrap();
        }
        let file_str = file.to_str().unwrap();
        let url = "postgres://alice@127.0.0.1/lore";
        let from_file = PgTarget::parse(url, &env(&[("PGPASSFILE", file_str)])).unwrap();
        assert_eq!(from_file.config.get_password(), Some(&b"from-file"[..]));
        let from_env = PgTarget::parse(url, &env(&[("PGPASSFILE", file_str), ("PGPASSWORD", "from-env")])).unwrap();
        assert_eq!(from_env.config.get_password(), Some(&b"from-env"[..]));
        let from_url = PgTarget::parse("postgres://alice:inline@127.0.0.1/lore", &env(&[("PGPASSWORD", "e")])).unwrap();
        assert_eq!(from_url.config.get_password(), Some(&b"inline"[..]));

        // A URL from a checkout's .lore.yaml gets neither PGPASSWORD nor a wildcard host line.
        std::fs::write(&file, "*:*:*:*:wildcard\n").unwrap();
        let pairs = [("PGPASSFILE", file_str), ("PGPASSWORD", "from-env")];
        let project = PgTarget::parse_from("postgres://alice@evil.example/x", &env(&pairs), Origin::Project).unwrap();
        assert_eq!(project.config.get_password(), None);
        std::fs::write(&file, "evil.example:*:*:*:exact\n").unwrap();
        let exact = PgTarget::parse_from("postgres://alice@evil.example/x", &env(&pairs), Origin::Project).unwrap();
        assert_eq!(exact.config.get_password(), Some(&b"exact"[..]));

        // Nor can it send the connection for `localhost`'s password elsewhere: by `hostaddr`, or
        // by a second host tried when the first refuses.
        std::fs::write(&file, "localhost:5432:*:alice:local-secret\n").unwrap();
        for url in
            ["postgres://alice@localhost/lore?hostaddr=203.0.113.9", "postgres://alice@localhost,evil.example/lore"]
        {
            let err = PgTarget::parse_from(url, &env(&pairs), Origin::Project).unwrap_err().to_string();
            assert!(err.contains("names one host") && !err.contains("local-secret"), "{url}: {err}");
            // The user's own LORE_DB may; and a hostaddr elsewhere is not loopback, so TLS is required.
            let user = PgTarget::parse_from(url, &env(&pairs), Origin::User).unwrap();
            if url.contains("hostaddr") {
                assert_eq!(user.tls, Tls::Require, "{url}");
            }
        }
    }

    /// Modes: what Unix keeps access in.
    #[cfg(unix)]
    mod unix {
        use super::*;
        use std::os::unix::fs::PermissionsExt;

        #[test]
        fn a_password_file_others_can_read_is_ignored() {
            let dir = tempfile::tempdir().unwrap();
            let file = dir.path().join("pgpass");
            std::fs::write(&file, "127.0.0.1:5432:lore:alice:from-file\n").unwrap();
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
            let pairs = [("PGPASSFILE", file.to_str().unwrap())];
            let target = PgTarget::parse("postgres://alice@127.0.0.1/lore", &env(&pairs)).unwrap();
            assert_eq!(target.config.get_password(), None);
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
            let target = PgTarget::parse("postgres://alice@127.0.0.1/lore", &env(&pairs)).unwrap();
            assert_eq!(target.config.get_password(), Some(&b"from-file"[..]));
        }
    }
}

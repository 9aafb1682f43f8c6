//! `type: "http"` hooks: the event is POSTed as JSON and the response read as a hook's stdout.
//!
//! Claude Code's rules: a 2xx with an empty body is success with no output; a 2xx with a JSON
//! object is read like a command's stdout JSON; a 2xx with any other body, a non-2xx status and a
//! connection failure are non-blocking errors; a timeout gives no decision. An http hook cannot
//! block through its status code, and a redirect is not followed (Claude Code follows none). The
//! URL is parsed; one with a user name or password is refused. `allowedHttpHookUrls` (merged from
//! every settings file) limits the URLs, matched part by part (see [`url_pattern_matches`]), and header values may use `$VAR`/`${VAR}` only for variables the hook lists in
//! `allowedEnvVars` (and, when any settings file sets it, `httpHookAllowedEnvVars`); any other
//! variable becomes an empty string.

use crate::engine::config::secrets::redact_url;
use crate::engine::execute::process::CAPTURE_CAP;
use crate::engine::execute::RawOutput;
use crate::engine::select::rule::wildcard_matches;
use hookmux_sdk::Env;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use url::Url;

/// The allow-lists from settings, merged across files (`None`: no file sets it).
#[derive(Clone, Debug, Default)]
pub struct HttpPolicy {
    pub allowed_urls: Option<Vec<String>>,
    pub allowed_env_vars: Option<Vec<String>>,
}

impl HttpPolicy {
    /// The URL to call, as the parser read it, or why it may not be called.
    ///
    /// What is checked is what is sent: the request goes to the parsed URL's own text, so no
    /// second parser can read a different host out of it.
    pub fn permit(&self, url: &str) -> Result<Url, String> {
        let shown = redact_url(url);
        let parsed = Url::parse(url).map_err(|err| format!("`{shown}` is not a URL the http hook can call: {err}"))?;
        // A userinfo part is how a URL shows one host and calls another
        // (`http://127.0.0.1:1@127.0.0.2/`), and it would put a password in a settings file.
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(format!(
                "`{shown}` has a user name or password before its host ({}); http hook URLs may not carry one",
                parsed.host_str().unwrap_or_default()
            ));
        }
        let Some(patterns) = self.allowed_urls.as_ref() else { return Ok(parsed) };
        if patterns.iter().any(|pattern| url_pattern_matches(pattern, &parsed)) {
            Ok(parsed)
        } else {
            Err(format!("`{shown}` is not in allowedHttpHookUrls ({})", patterns.join(", ")))
        }
    }
}

/// Stands for `*` while a pattern goes through the URL parser: lower-case letters are kept as they
/// are in a scheme, a host and a path, where `*` would be refused or percent-encoded.
const STAR: &str = "hookmuxstar";

/// Claude Code's `allowedHttpHookUrls` matching, part by part on parsed URLs: `*` alone allows
/// every URL; otherwise the scheme (`*` or equal), the host (a glob over the whole host, so `*`
/// may span dots, compared without case or a trailing dot), the port (equal, or any for `:*` and
/// for a host with a `*` and no port) and the path with its query (a glob, so `*` may span
/// slashes; a pattern with no path allows every path). A `*` never runs from one part into the
/// next. A pattern the parser cannot read allows nothing.
pub fn url_pattern_matches(pattern: &str, url: &Url) -> bool {
    if pattern == "*" {
        return true;
    }
    let marked = pattern.replace('*', STAR);
    let (parsed, mut any_port) = match Url::parse(&marked) {
        Ok(parsed) => (parsed, false),
        // `:*` is no port number: read it as port 0 and remember that any port will do.
        Err(_) => match any_port_form(&marked).and_then(|text| Url::parse(&text).ok()) {
            Some(parsed) => (parsed, true),
            None => return false,
        },
    };
    let scheme = parsed.scheme();
    if scheme != STAR && scheme != url.scheme() {
        return false;
    }
    let host_part = |u: &Url| u.host_str().unwrap_or_default().trim_end_matches('.').to_ascii_lowercase();
    let pattern_host = host_part(&parsed);
    if !wildcard_matches(&pattern_host.replace(STAR, "*"), &host_part(url)) {
        return false;
    }
    if parsed.port().is_none() && pattern_host.contains(STAR) {
        any_port = true;
    }
    if !any_port && parsed.port() != url.port() {
        return false;
    }
    let query = |u: &Url| u.query().filter(|q| !q.is_empty()).map(|q| format!("?{q}")).unwrap_or_default();
    if parsed.path() == "/" && query(&parsed).is_empty() && !marked.ends_with('/') {
        return true;
    }
    let pattern_path = format!("{}{}", parsed.path(), query(&parsed)).replace(STAR, "*");
    wildcard_matches(&pattern_path, &format!("{}{}", url.path(), query(url)))
}

/// The pattern with its `:*` port (before the path, query, fragment or end) written as `:0`.
fn any_port_form(marked: &str) -> Option<String> {
    let port = format!(":{STAR}");
    let at = marked
        .match_indices(&port)
        .map(|(at, _)| at)
        .find(|&at| marked[at + port.len()..].chars().next().is_none_or(|next| matches!(next, '/' | '?' | '#')))?;
    Some(format!("{}:0{}", &marked[..at], &marked[at + port.len()..]))
}

pub struct HttpCall<'a> {
    /// Already through [`HttpPolicy::permit`].
    pub url: &'a Url,
    pub headers: &'a BTreeMap<String, String>,
    pub allowed_env_vars: &'a [String],
    pub body: &'a [u8],
    pub timeout: Duration,
}

/// POSTs the event; maps the response onto a hook's raw output so that one classifier serves
/// every handler type.
pub fn post(call: &HttpCall<'_>, policy: &HttpPolicy, env: &Env) -> RawOutput {
    let started = Instant::now();
    // No redirects: Claude Code follows none (a 3xx is a non-2xx answer), and a followed one
    // would reach a host the allow-list never saw.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(call.timeout))
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let mut request = agent.post(call.url.as_str()).header("Content-Type", "application/json");
    for (name, value) in call.headers {
        request = request.header(name, interpolate(value, call.allowed_env_vars, policy, env));
    }
    let mut raw = match request.send(call.body) {
        Ok(mut response) => {
            let status = response.status().as_u16();
            let body = response.body_mut().with_config().limit(CAPTURE_CAP as u64).read_to_vec();
            match body {
                Ok(body) => classify_response(call.url.as_str(), status, body),
                Err(err) => failed(format!("reading the response of {}: {err}", call.url)),
            }
        }
        Err(ureq::Error::Timeout(_)) => RawOutput { timed_out: true, ..RawOutput::default() },
        Err(err) => failed(format!("POST {} failed: {err}", call.url)),
    };
    raw.wall = started.elapsed();
    raw
}

fn classify_response(url: &str, status: u16, body: Vec<u8>) -> RawOutput {
    if !(200..300).contains(&status) {
        return failed(format!("POST {url} answered HTTP {status}"));
    }
    let text = String::from_utf8_lossy(&body);
    let trimmed = text.trim();
    if trimmed.is_empty() || (trimmed.starts_with('{') && serde_json::from_str::<serde_json::Value>(trimmed).is_ok()) {
        return RawOutput { stdout: body, exit_code: Some(0), ..RawOutput::default() };
    }
    if trimmed.starts_with('{') {
        // Looks like JSON but is not: let the classifier report it as it does for commands.
        return RawOutput { stdout: body, exit_code: Some(0), ..RawOutput::default() };
    }
    failed(format!("POST {url} answered HTTP {status} with a body that is not a JSON object"))
}

fn failed(message: String) -> RawOutput {
    RawOutput::failure(message)
}

/// Replaces `$VAR` and `${VAR}` with the variable's value when the hook may use it, else with "".
fn interpolate(value: &str, allowed: &[String], policy: &HttpPolicy, env: &Env) -> String {
    let permitted = |name: &str| {
        allowed.iter().any(|a| a == name)
            && policy.allowed_env_vars.as_ref().is_none_or(|global| global.iter().any(|g| g == name))
    };
    let mut out = String::new();
    let mut rest = value;
    while let Some(dollar) = rest.find('$') {
        out.push_str(&rest[..dollar]);
        let after = &rest[dollar + 1..];
        let (name, consumed) = if let Some(braced) = after.strip_prefix('{') {
            match braced.find('}') {
                Some(end) => (&braced[..end], end + 2),
                None => ("", 0),
            }
        } else {
            let end = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
            (&after[..end], end)
        };
        if name.is_empty() {
            out.push('$');
            rest = after;
            continue;
        }
        if permitted(name) {
            out.push_str(env.get(name).unwrap_or_default());
        }
        rest = &after[consumed..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_interpolate_only_allowed_variables() {
        let env: Env = [("TOKEN", "t0k"), ("SECRET", "s3")].into_iter().collect();
        let allowed = vec!["TOKEN".to_string()];
        let open = HttpPolicy::default();
        assert_eq!(interpolate("Bearer $TOKEN", &allowed, &open, &env), "Bearer t0k");
        assert_eq!(interpolate("${TOKEN}/${SECRET}/$SECRET", &allowed, &open, &env), "t0k//");
        assert_eq!(interpolate("cost $5 and $", &allowed, &open, &env), "cost  and $");
        let global = HttpPolicy { allowed_urls: None, allowed_env_vars: Some(vec!["OTHER".into()]) };
        assert_eq!(interpolate("$TOKEN", &allowed, &global, &env), "");
    }

    fn allows(pattern: &str, url: &str) -> bool {
        let policy = HttpPolicy { allowed_urls: Some(vec![pattern.into()]), allowed_env_vars: None };
        policy.permit(url).is_ok()
    }

    #[test]
    fn url_allow_list() {
        let policy =
            HttpPolicy { allowed_urls: Some(vec!["http://127.0.0.1:*/hooks/*".into()]), allowed_env_vars: None };
        assert!(policy.permit("http://127.0.0.1:8080/hooks/pre").is_ok());
        assert!(policy.permit("https://evil.example/hooks/pre").is_err());
        assert!(HttpPolicy::default().permit("https://anything").is_ok());
    }

    #[test]
    fn userinfo_never_passes_for_the_host_it_hides() {
        // The README's own pattern, and the URL that used to get through it to 127.0.0.2.
        assert!(!allows("http://127.0.0.1:*/hooks/*", "http://127.0.0.1:1@127.0.0.2:18765/hooks/deny"));
        let refusal = HttpPolicy::default().permit("http://user:pw@127.0.0.1:8080/hooks/x").unwrap_err();
        assert!(refusal.contains("user name or password"), "{refusal}");
        assert!(HttpPolicy::default().permit("http://user@127.0.0.1/").is_err());
        assert!(HttpPolicy::default().permit("not a url").is_err());
    }

    #[test]
    fn star_stays_in_its_part() {
        // Scheme.
        assert!(!allows("http://127.0.0.1:*/*", "https://127.0.0.1:1/x"));
        assert!(allows("*://127.0.0.1:*/*", "https://127.0.0.1:1/x"));
        // Host: a glob over the whole host, so `*` spans dots, but never into the port or path.
        assert!(allows("http://127.*:*/deny", "http://127.0.0.1:18765/deny"));
        assert!(allows("https://*.example.com/*", "https://a.b.example.com/x"));
        assert!(!allows("https://*.example.com/*", "https://example.com.evil.test/x"));
        assert!(!allows("http://127.0.0.1*/x", "http://127.0.0.2/x?127.0.0.1"));
        assert!(!allows("https://hooks.example.com/*", "https://hooks.example.com.evil.test/x"));
        assert!(allows("HTTPS://Hooks.Example.COM./a", "https://hooks.example.com/a"));
        // Port: equal (the default port is no port), `:*` any, or any when the host has a `*`.
        assert!(!allows("http://127.0.0.1/*", "http://127.0.0.1:8080/x"));
        assert!(allows("http://127.0.0.1:80/*", "http://127.0.0.1/x"));
        assert!(allows("http://127.0.0.1:*/x", "http://127.0.0.1:1/x"));
        assert!(allows("http://127.0.0.1*", "http://127.0.0.1:18765/deny"));
        // Path and query: a glob that may span slashes; a pattern without a path allows any path.
        assert!(allows("http://127.0.0.1:*/hooks/*", "http://127.0.0.1:1/hooks/a/b/deny"));
        assert!(!allows("http://127.0.0.1:*/hooks/*", "http://127.0.0.1:1/other/hooks/x"));
        assert!(!allows("http://127.0.0.1:*/hooks/*", "http://127.0.0.1:1/hooks"));
        assert!(allows("http://127.0.0.1:*", "http://127.0.0.1:1/any/thing?q=1"));
        assert!(!allows("http://127.0.0.1:*/", "http://127.0.0.1:1/any"));
        assert!(allows("http://127.0.0.1:*/a?k=*", "http://127.0.0.1:1/a?k=v"));
        assert!(!allows("http://127.0.0.1:*/a", "http://127.0.0.1:1/a?k=v"));
        // The parser's reading counts, not the text: dot segments and backslashes are resolved.
        assert!(!allows("http://127.0.0.1:*/hooks/*", "http://127.0.0.1:1/hooks/../admin"));
        assert!(allows("http://127.0.0.1:*/hooks/*", "http://127.0.0.1:1\\hooks\\x"));
        // `*` alone allows everything (but userinfo is still refused); an unreadable pattern nothing.
        assert!(allows("*", "ftp://x/y"));
        assert!(!allows("*", "http://u@x/"));
        assert!(!allows("http://[::1/*", "http://[::1]/x"));
    }

    #[test]
    fn responses_map_to_hook_output() {
        assert_eq!(classify_response("u", 200, vec![]).exit_code, Some(0));
        assert_eq!(classify_response("u", 204, b"{\"continue\":false}".to_vec()).stdout, b"{\"continue\":false}");
        let plain = classify_response("u", 200, b"ok".to_vec());
        assert_eq!(plain.exit_code, Some(1));
        let error = classify_response("u", 503, b"{}".to_vec());
        assert!(String::from_utf8_lossy(&error.stderr).contains("HTTP 503"));
    }
}

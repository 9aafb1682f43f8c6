//! `type: "http"` hooks: the event is POSTed as JSON and the response read as a hook's stdout.
//!
//! Claude Code's rules: a 2xx with an empty body is success with no output; a 2xx with a JSON
//! object is read like a command's stdout JSON; a 2xx with any other body, a non-2xx status and a
//! connection failure are non-blocking errors; a timeout gives no decision. An http hook cannot
//! block through its status code. `allowedHttpHookUrls` (merged from every settings file) limits
//! the URLs, and header values may use `$VAR`/`${VAR}` only for variables the hook lists in
//! `allowedEnvVars` (and, when any settings file sets it, `httpHookAllowedEnvVars`); any other
//! variable becomes an empty string.

use crate::engine::execute::process::CAPTURE_CAP;
use crate::engine::execute::RawOutput;
use crate::engine::select::rule::wildcard_matches;
use hookmux_sdk::Env;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The allow-lists from settings, merged across files (`None`: no file sets it).
#[derive(Clone, Debug, Default)]
pub struct HttpPolicy {
    pub allowed_urls: Option<Vec<String>>,
    pub allowed_env_vars: Option<Vec<String>>,
}

impl HttpPolicy {
    /// `None` when the URL may be called, else why not.
    pub fn refusal(&self, url: &str) -> Option<String> {
        let patterns = self.allowed_urls.as_ref()?;
        if patterns.iter().any(|pattern| wildcard_matches(pattern, url)) {
            None
        } else {
            Some(format!("`{url}` is not in allowedHttpHookUrls ({})", patterns.join(", ")))
        }
    }
}

pub struct HttpCall<'a> {
    pub url: &'a str,
    pub headers: &'a BTreeMap<String, String>,
    pub allowed_env_vars: &'a [String],
    pub body: &'a [u8],
    pub timeout: Duration,
}

/// POSTs the event; maps the response onto a hook's raw output so that one classifier serves
/// every handler type.
pub fn post(call: &HttpCall<'_>, policy: &HttpPolicy, env: &Env) -> RawOutput {
    let started = Instant::now();
    let agent: ureq::Agent =
        ureq::Agent::config_builder().timeout_global(Some(call.timeout)).http_status_as_error(false).build().into();
    let mut request = agent.post(call.url).header("Content-Type", "application/json");
    for (name, value) in call.headers {
        request = request.header(name, interpolate(value, call.allowed_env_vars, policy, env));
    }
    let mut raw = match request.send(call.body) {
        Ok(mut response) => {
            let status = response.status().as_u16();
            let body = response.body_mut().with_config().limit(CAPTURE_CAP as u64).read_to_vec();
            match body {
                Ok(body) => classify_response(call.url, status, body),
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

    #[test]
    fn url_allow_list() {
        let policy =
            HttpPolicy { allowed_urls: Some(vec!["http://127.0.0.1:*/hooks/*".into()]), allowed_env_vars: None };
        assert_eq!(policy.refusal("http://127.0.0.1:8080/hooks/pre"), None);
        assert!(policy.refusal("https://evil.example/hooks/pre").is_some());
        assert_eq!(HttpPolicy::default().refusal("https://anything"), None);
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

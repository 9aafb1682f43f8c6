//! Credentials written out in settings text: an API key in a command, a URL or a header.
//!
//! `hooks validate` reports them (`hardcoded-secret`), masked; the dispatch trace writes hook
//! commands with them masked ([`redact`]), so a key pasted into a command does not also land in
//! the trace files. `$VAR` and `${VAR}` are references, never secrets.

use std::borrow::Cow;

/// What looks like a credential in `text`, each masked (its first 4 characters and `…`) and
/// named: `("sk-a…", "an Anthropic API key")`. `$VAR` and `${VAR}` are not secrets.
pub fn secrets(text: &str) -> Vec<(String, &'static str)> {
    let mut found: Vec<(String, &'static str)> = Vec::new();
    let is_token_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut start = None;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (index, &(offset, c)) in chars.iter().enumerate() {
        let in_token = is_token_char(c);
        match (start, in_token) {
            (None, true) => start = Some((index, offset)),
            (Some((first, from)), false) => {
                check_token(&chars, first, &text[from..offset], &mut found);
                start = None;
            }
            _ => {}
        }
    }
    if let Some((first, from)) = start {
        check_token(&chars, first, &text[from..], &mut found);
    }
    if let Some(token) = bearer_literal(text) {
        if !found.iter().any(|(masked, _)| *masked == mask(token)) {
            found.push((mask(token), "a bearer token"));
        }
    }
    found
}

fn check_token(chars: &[(usize, char)], first: usize, token: &str, found: &mut Vec<(String, &'static str)>) {
    // A variable's name (`$GITHUB_TOKEN`, `${AWS_KEY}`) is not its value.
    let before = first.checked_sub(1).map(|i| chars[i].1);
    if matches!(before, Some('$' | '{')) {
        return;
    }
    if let Some(kind) = secret_kind(token) {
        let secret = (mask(token), kind);
        if !found.contains(&secret) {
            found.push(secret);
        }
    }
}

fn secret_kind(token: &str) -> Option<&'static str> {
    let alnum = |s: &str| s.chars().all(|c| c.is_ascii_alphanumeric());
    let long = |s: &str, n: usize| s.len() >= n;
    let has_digit = |s: &str| s.chars().any(|c| c.is_ascii_digit());
    if let Some(rest) = token.strip_prefix("sk-ant-") {
        return long(rest, 20).then_some("an Anthropic API key");
    }
    if let Some(rest) = token.strip_prefix("sk-") {
        return (long(rest, 20) && has_digit(rest)).then_some("an OpenAI-style API key");
    }
    for prefix in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] {
        if let Some(rest) = token.strip_prefix(prefix) {
            return (long(rest, 30) && alnum(rest)).then_some("a GitHub token");
        }
    }
    if let Some(rest) = token.strip_prefix("github_pat_") {
        return long(rest, 22).then_some("a GitHub token");
    }
    if let Some(rest) = token.strip_prefix("AKIA").or_else(|| token.strip_prefix("ASIA")) {
        let shaped = rest.len() == 16 && rest.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        return shaped.then_some("an AWS access key id");
    }
    for prefix in ["xoxb-", "xoxp-", "xoxa-", "xoxs-"] {
        if let Some(rest) = token.strip_prefix(prefix) {
            return (long(rest, 10) && has_digit(rest)).then_some("a Slack token");
        }
    }
    if let Some(rest) = token.strip_prefix("AIza") {
        return (rest.len() >= 35).then_some("a Google API key");
    }
    if let Some(rest) = token.strip_prefix("glpat-") {
        return long(rest, 20).then_some("a GitLab token");
    }
    for prefix in ["sk_live_", "rk_live_"] {
        if let Some(rest) = token.strip_prefix(prefix) {
            return long(rest, 16).then_some("a Stripe secret key");
        }
    }
    None
}

/// The literal after `Bearer ` (any case), when it is long enough to be a token and is not a
/// variable.
fn bearer_literal(text: &str) -> Option<&str> {
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("bearer") {
        let start = from + at;
        from = start + "bearer".len();
        let word_start = start == 0 || !text[..start].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        let rest = &text[from..];
        let Some(token) = rest.strip_prefix([' ', '\t']) else { continue };
        let token = token.trim_start();
        let end = token.find(|c: char| c.is_whitespace() || "\"'`;|&)".contains(c)).unwrap_or(token.len());
        let token = &token[..end];
        if word_start && literal_secret(token) {
            return Some(token);
        }
    }
    None
}

/// A value written out (no `$`), long enough to be a credential rather than a placeholder.
pub fn literal_secret(value: &str) -> bool {
    value.len() >= 16
        && !value.contains('$')
        && !value.contains(char::is_whitespace)
        && !value.starts_with('<')
        && value.chars().any(|c| c.is_ascii_digit())
}

/// The first 4 characters and `…`: enough to find it, not enough to use it.
pub fn mask(secret: &str) -> String {
    let head: String = secret.chars().take(4).collect();
    format!("{head}…")
}

/// `text` with every credential [`secrets`] finds replaced by its mask: what may be written to a
/// log. Text without one comes back as it is, unallocated.
pub fn redact(text: &str) -> Cow<'_, str> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let is_token_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut start: Option<usize> = None;
    let mut previous: Option<char> = None;
    let mut before_token: Option<char> = None;
    for (offset, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (start, is_token_char(c)) {
            (None, true) => {
                start = Some(offset);
                before_token = previous;
            }
            (Some(from), false) => {
                if !matches!(before_token, Some('$' | '{')) && secret_kind(&text[from..offset]).is_some() {
                    spans.push((from, offset));
                }
                start = None;
            }
            _ => {}
        }
        previous = Some(c);
    }
    if let Some(token) = bearer_literal(text) {
        // A slice of `text`: its offset is where it starts.
        let from = token.as_ptr() as usize - text.as_ptr() as usize;
        if !spans.iter().any(|&(a, b)| a <= from && from < b) {
            spans.push((from, from + token.len()));
        }
    }
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    spans.sort_unstable();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (from, to) in spans {
        if from < at {
            continue;
        }
        out.push_str(&text[at..from]);
        out.push_str(&mask(&text[from..to]));
        at = to;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// A URL as it may be shown: the password of a `user:password@` part replaced by `***`, a query
/// (`?token=…`, where services put keys) by `?…`, and credentials elsewhere in it masked as
/// [`redact`] masks them. The messages that show it also name the file and JSON path it is at.
/// Text that is not a URL, or has neither, comes back as it is.
pub fn redact_url(url: &str) -> Cow<'_, str> {
    let url: Cow<'_, str> = match url.find('?') {
        Some(at) if url.contains("://") => Cow::Owned(format!("{}?…", &url[..at])),
        _ => Cow::Borrowed(url),
    };
    let shown = match url.split_once("://") {
        Some((scheme, rest)) => {
            let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
            let (authority, tail) = rest.split_at(authority_end);
            match authority.rsplit_once('@').and_then(|(userinfo, host)| {
                userinfo.split_once(':').map(|(user, _password)| format!("{scheme}://{user}:***@{host}{tail}"))
            }) {
                Some(masked) => Cow::Owned(masked),
                None => url.clone(),
            }
        }
        None => url.clone(),
    };
    match redact(&shown) {
        Cow::Borrowed(_) => shown,
        Cow::Owned(redacted) => Cow::Owned(redacted),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_masks_each_credential_and_keeps_the_rest() {
        let key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
        let command = format!("curl -H 'x-api-key: {key}' https://api.example.com && echo done");
        let redacted = redact(&command);
        assert_eq!(redacted, "curl -H 'x-api-key: sk-a…' https://api.example.com && echo done");
        let bearer = "notify --header 'Authorization: Bearer 0123456789abcdefXYZ' --quiet";
        assert_eq!(redact(bearer), "notify --header 'Authorization: Bearer 0123…' --quiet");
    }

    #[test]
    fn redact_url_hides_a_password_and_keeps_the_host() {
        assert_eq!(redact_url("http://alice:hunter2@127.0.0.1:9/hook?x=1"), "http://alice:***@127.0.0.1:9/hook?…");
        assert_eq!(redact_url("https://hooks.example.com/h?token=t0ps3cr3t"), "https://hooks.example.com/h?…");
        assert_eq!(redact_url("https://a:b:c@h/p@q"), "https://a:***@h/p@q");
        assert_eq!(redact_url("http://127.0.0.1:1@127.0.0.2/"), "http://127.0.0.1:***@127.0.0.2/");
        for plain in ["https://example.com/hook", "http://user@host/", "not a url?"] {
            assert_eq!(redact_url(plain), plain);
        }
    }

    #[test]
    fn redact_leaves_references_and_plain_text_alone() {
        for text in
            ["echo $ANTHROPIC_API_KEY", "curl -H \"Authorization: Bearer ${TOKEN}\"", "hookmux run protect-paths", ""]
        {
            assert!(matches!(redact(text), Cow::Borrowed(t) if t == text), "{text}");
        }
    }
}

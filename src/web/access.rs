//! Who may ask the arena's server what: the checks of a request's
//! headers that keep a page of another site from reading or acting
//! through a user's browser, and a client without the token from acting.

use axum::http::HeaderMap;

/// Whether a `Host` header names the loopback interface: `localhost` (or
/// a name under it, which browsers resolve there), `127.x.x.x` or `[::1]`,
/// with a port or without.
pub fn loopback_host(host: &[u8]) -> bool {
    let host = String::from_utf8_lossy(host).to_ascii_lowercase();
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => &host,
    };
    match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(v6) => v6
            .parse::<std::net::Ipv6Addr>()
            .is_ok_and(|a| a.is_loopback()),
        None => {
            name == "localhost"
                || name.ends_with(".localhost")
                || name
                    .parse::<std::net::Ipv4Addr>()
                    .is_ok_and(|a| a.is_loopback())
        }
    }
}

/// Why an action with these headers is refused, if it is.
pub fn allowed(headers: &HeaderMap, token: Option<&str>) -> std::result::Result<(), String> {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = text("sec-fetch-site") {
        if site != "same-origin" && site != "none" {
            return Err(format!("a cross-site request ({site}) is refused"));
        }
    }
    if let (Some(origin), Some(host)) = (text("origin"), text("host")) {
        let bare = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .unwrap_or(origin);
        if bare != host {
            return Err(format!(
                "a request from another origin ({origin}) is refused"
            ));
        }
    }
    if text("x-ladder") != Some("1") {
        return Err("an action needs the header `X-Ladder: 1`".into());
    }
    if let Some(token) = token {
        let given = text("authorization").and_then(|a| a.strip_prefix("Bearer "));
        if !given.is_some_and(|g| constant_time_eq(g.as_bytes(), token.as_bytes())) {
            return Err(
                "this action needs the server's token (Authorization: Bearer TOKEN)".into(),
            );
        }
    }
    Ok(())
}

/// Whether `a == b`, in a time that does not tell where they differ.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn actions_need_the_header_the_token_and_the_same_origin() {
        let ok = [("x-ladder", "1"), ("host", "127.0.0.1:8080")];
        assert!(allowed(&headers(&ok), None).is_ok());
        assert!(allowed(&headers(&[("host", "a")]), None).is_err());
        let cross = [("x-ladder", "1"), ("sec-fetch-site", "cross-site")];
        assert!(allowed(&headers(&cross), None).is_err());
        let other = [
            ("x-ladder", "1"),
            ("host", "127.0.0.1:8080"),
            ("origin", "http://evil.example"),
        ];
        assert!(allowed(&headers(&other), None).is_err());
        assert!(allowed(&headers(&ok), Some("s3cret")).is_err());
        let with = [("x-ladder", "1"), ("authorization", "Bearer s3cret")];
        assert!(allowed(&headers(&with), Some("s3cret")).is_ok());
        let wrong = [("x-ladder", "1"), ("authorization", "Bearer s3creT")];
        assert!(allowed(&headers(&wrong), Some("s3cret")).is_err());
    }

    #[test]
    fn a_host_is_loopback_by_its_address_or_localhost_with_any_port() {
        for h in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "127.1.2.3:1",
            "[::1]:8080",
            "[::1]",
            "localhost:80",
            "LocalHost",
            "arena.localhost:9",
        ] {
            assert!(loopback_host(h.as_bytes()), "{h}");
        }
        for h in [
            "evil.example:8080",
            "evil.example",
            "127.0.0.1.evil.example:80",
            "localhost.evil.example",
            "10.0.0.1:80",
            "[::2]:80",
            "::1",
            "",
            "localhost:80x",
        ] {
            assert!(!loopback_host(h.as_bytes()), "{h}");
        }
    }
}

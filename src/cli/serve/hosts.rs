//! The names a request may give the server in its `Host` (`--allow-host`):
//! the check against DNS rebinding.

/// The names requests may give this server in their `Host`: a page of
/// another site that makes its own name lead here (DNS rebinding) is
/// refused, since it names itself.
#[derive(Debug)]
pub struct Hosts {
    /// Listening on a loopback address: only loopback addresses, besides
    /// the names.
    pub loopback: bool,
    /// `localhost` and the names of `--allow-host`, lowercase.
    pub names: Vec<String>,
}

impl Hosts {
    /// Whether `host` (a `Host` header) is one of them, port aside. Any
    /// address is one unless the server is on a loopback address: a page
    /// at an address is the server itself, so no rebinding goes through
    /// one.
    pub fn allow(&self, host: &str) -> bool {
        let name = match host.strip_prefix('[') {
            // An IPv6 address, `[::1]:8064`.
            Some(rest) => rest.split(']').next().unwrap_or(""),
            None => host.rsplit_once(':').map_or(host, |(name, _)| name),
        };
        let name = name.strip_suffix('.').unwrap_or(name);
        if let Ok(ip) = name.parse::<std::net::IpAddr>() {
            return ip.is_loopback() || !self.loopback;
        }
        name.eq_ignore_ascii_case("localhost")
            || self.names.iter().any(|n| n.eq_ignore_ascii_case(name))
    }

    /// What [`Hosts::allow`] takes, for the refusal.
    pub fn described(&self) -> String {
        let mut names = vec!["localhost".to_owned()];
        names.extend(self.names.iter().cloned());
        names.push(if self.loopback {
            "a loopback address".to_owned()
        } else {
            "an address".to_owned()
        });
        names.join(", ")
    }
}

/// A value of `--allow-host`: a host name or an address, without a port.
pub fn host_name(text: &str) -> Result<String, String> {
    let bare = text.strip_prefix('[').and_then(|t| t.strip_suffix(']'));
    if bare.unwrap_or(text).parse::<std::net::IpAddr>().is_ok() {
        return Ok(bare.unwrap_or(text).to_ascii_lowercase());
    }
    let name = text.strip_suffix('.').unwrap_or(text);
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    };
    if name.len() <= 253 && name.split('.').all(label_ok) {
        return Ok(name.to_ascii_lowercase());
    }
    Err(format!(
        "{text:?} is not a host name (letters, digits, '-' and '.') or an address; \
         give it without a scheme, port or path, e.g. games.example.org"
    ))
}

#[cfg(test)]
mod tests {
    use super::{host_name, Hosts};

    #[test]
    fn loopback_hosts_are_this_machine_by_name_or_address() {
        let hosts = Hosts {
            loopback: true,
            names: Vec::new(),
        };
        for host in [
            "127.0.0.1:8064",
            "localhost:1",
            "LOCALHOST",
            "localhost.",
            "[::1]:8064",
            "127.1.2.3",
        ] {
            assert!(hosts.allow(host), "{host}");
        }
        for host in [
            "example.com",
            "evil.localhost.example:80",
            "10.0.0.1:8064",
            "",
            "[::2]:1",
        ] {
            assert!(!hosts.allow(host), "{host}");
        }
    }

    #[test]
    fn elsewhere_the_names_given_and_any_address() {
        let hosts = Hosts {
            loopback: false,
            names: vec!["games.example.org".into()],
        };
        for host in [
            "games.example.org",
            "Games.Example.Org:8064",
            "10.0.0.1:8064",
            "[fe80::1]:80",
            "localhost:8064",
        ] {
            assert!(hosts.allow(host), "{host}");
        }
        for host in ["example.org", "evil.example", "games.example.org.evil", ""] {
            assert!(!hosts.allow(host), "{host}");
        }
    }

    #[test]
    fn allowed_hosts_are_names_or_addresses_without_ports() {
        assert_eq!(host_name("Games.Example.org").unwrap(), "games.example.org");
        assert_eq!(host_name("[::1]").unwrap(), "::1");
        assert_eq!(host_name("192.168.1.2").unwrap(), "192.168.1.2");
        for bad in [
            "",
            "games.example.org:80",
            "http://x",
            "a b",
            "*.example.org",
            "a..b",
        ] {
            assert!(host_name(bad).is_err(), "{bad}");
        }
    }
}

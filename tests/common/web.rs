//! The arena's web server and a real browser for the tests: `ladder arena
//! run --listen` as a child process, an HTTP client for its API, and
//! Debian's Chromium driven through chromedriver (WebDriver).

use std::{
    io::{BufRead, BufReader},
    net::TcpListener,
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

use serde_json::{json, Value};

use super::{require_tool, wait_for};

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");

/// `ladder arena ARGS` in `dir` (`run` or `serve`, listening on a free
/// loopback port unless ARGS say `--listen`), with the address it serves on.
pub struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub url: String,
}

impl Served {
    pub fn start(dir: &Path, args: &[&str]) -> Served {
        Served::start_with(dir, args, &[])
    }

    /// As [`Served::start`], with environment variables.
    pub fn start_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Served {
        let mut cmd = Command::new(LADDER);
        cmd.env_remove("LADDER_TOKEN").envs(env.iter().copied());
        Served::launch(cmd, dir, args)
    }

    /// As [`Served::start`], in a process that may hold at most `files`
    /// file descriptors at once (`ulimit -n`).
    pub fn start_limited(dir: &Path, args: &[&str], files: u64) -> Served {
        use std::os::unix::process::CommandExt;
        let mut cmd = Command::new(LADDER);
        cmd.env_remove("LADDER_TOKEN");
        let limit = rustix::process::Rlimit {
            current: Some(files),
            maximum: Some(files),
        };
        // SAFETY: setrlimit is async-signal-safe, and nothing else runs
        // between fork and exec
        unsafe {
            cmd.pre_exec(move || {
                rustix::process::setrlimit(rustix::process::Resource::Nofile, limit)
                    .map_err(std::io::Error::from)
            });
        }
        Served::launch(cmd, dir, args)
    }

    /// As [`Served::start`], run by `cmd` (a ladder, or a command that
    /// runs one: `setpriv ... ladder`).
    pub fn start_command(mut cmd: Command, dir: &Path, args: &[&str]) -> Served {
        cmd.env_remove("LADDER_TOKEN");
        Served::launch(cmd, dir, args)
    }

    fn launch(mut cmd: Command, dir: &Path, args: &[&str]) -> Served {
        cmd.current_dir(dir).arg("arena").args(args);
        if !args.contains(&"--listen") {
            cmd.args(["--listen", "127.0.0.1:0"]);
        }
        let mut child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut said = Vec::new();
        let url = loop {
            let Some(Ok(line)) = lines.next() else {
                let _ = child.kill();
                panic!("the arena stopped before serving: {said:?}");
            };
            if let Some(at) = line.strip_prefix("serving the arena's pages at ") {
                break at.trim_end_matches('/').to_string();
            }
            said.push(line);
        };
        // the rest of its standard error, so that it never blocks on a full pipe
        // (shown with a failing test's output)
        std::thread::spawn(move || {
            lines
                .map_while(Result::ok)
                .for_each(|l| eprintln!("[served] {l}"))
        });
        Served { child, url }
    }
}

impl Served {
    /// The process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process still runs.
    pub fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// An object's keys, sorted: the shape of an API's answer.
pub fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort();
    k
}

/// `GET url`: its status and body as JSON (`null` when it is not JSON).
pub fn get(url: &str) -> (u16, Value) {
    let mut r = agent().get(url).call().unwrap();
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// `GET url`: its status, `Content-Type` and text.
pub fn get_text(url: &str) -> (u16, String, String) {
    let mut r = agent().get(url).call().unwrap();
    let kind = r
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (
        r.status().as_u16(),
        kind,
        r.body_mut().read_to_string().unwrap(),
    )
}

/// `POST url` with `headers` and `body`: its status and JSON body.
pub fn post(url: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, Value) {
    let mut req = agent().post(url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let mut r = req.send(body).unwrap();
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A free port on loopback.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A headless Chromium session through chromedriver.
pub struct Browser {
    driver: Child,
    url: String,
    session: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// A new browser, or `None` (outside CI only) when Chromium or
    /// chromedriver is missing.
    pub fn start() -> Option<Browser> {
        let runs = |tool: &str| {
            Command::new(tool)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        if !require_tool(runs("chromium"), "chromium", "chromium")
            || !require_tool(runs("chromedriver"), "chromedriver", "chromium-driver")
        {
            return None;
        }
        let port = free_port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let url = format!("http://127.0.0.1:{port}");
        let ready = wait_for(60, || {
            agent()
                .get(&format!("{url}/status"))
                .call()
                .is_ok_and(|r| r.status() == 200)
        });
        assert!(ready, "chromedriver did not start");
        let profile = tempfile::tempdir().unwrap();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                         "--no-first-run", "--disable-background-networking",
                         "--disable-component-update", "--disable-sync",
                         "--disable-dev-shm-usage", "--window-size=1200,900",
                         format!("--user-data-dir={}", profile.path().display())],
            },
        }}});
        let (status, answer) = post(
            &format!("{url}/session"),
            &[("content-type", "application/json")],
            caps.to_string().as_bytes(),
        );
        assert_eq!(status, 200, "a WebDriver session: {answer}");
        let session = answer["value"]["sessionId"].as_str().unwrap().to_string();
        Some(Browser {
            driver,
            url,
            session,
            _profile: profile,
        })
    }

    fn command(&self, path: &str, body: Value) -> Value {
        let (status, answer) = post(
            &format!("{}/session/{}/{path}", self.url, self.session),
            &[("content-type", "application/json")],
            body.to_string().as_bytes(),
        );
        assert_eq!(status, 200, "WebDriver {path}: {answer}");
        answer["value"].clone()
    }

    /// Opens `url`.
    pub fn goto(&self, url: &str) {
        self.command("url", json!({ "url": url }));
    }

    /// Runs `script` (a function body: `return ...`) in the page.
    pub fn eval(&self, script: &str) -> Value {
        self.command("execute/sync", json!({ "script": script, "args": [] }))
    }

    /// Waits (up to `secs`) until `script` returns something other than
    /// `null`, `false` or `""`; that value, or `None`.
    pub fn wait(&self, secs: u64, script: &str) -> Option<Value> {
        let mut got = None;
        wait_for(secs, || {
            let v = self.eval(script);
            let truthy = !matches!(&v, Value::Null | Value::Bool(false)) && v.as_str() != Some("");
            if truthy {
                got = Some(v);
            }
            truthy
        });
        got
    }

    /// [`Browser::wait`], failing the test with the page's text when
    /// `script` never holds.
    pub fn expect(&self, secs: u64, script: &str) -> Value {
        self.wait(secs, script).unwrap_or_else(|| {
            let page = self.eval("return document.body ? document.body.innerText : ''");
            panic!(
                "`{script}` never held; the page:\n{}",
                page.as_str().unwrap_or("")
            )
        })
    }

    /// Types `text` into the element `css` selects (a file input takes a path).
    pub fn type_into(&self, css: &str, text: &str) {
        let found = self.command("element", json!({ "using": "css selector", "value": css }));
        let id = found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap()
            .to_string();
        self.command(&format!("element/{id}/value"), json!({ "text": text }));
    }

    /// The page as a PNG, written to `path`.
    pub fn screenshot(&self, path: &Path) {
        use base64::Engine as _;
        let mut r = agent()
            .get(&format!("{}/session/{}/screenshot", self.url, self.session))
            .call()
            .unwrap();
        let answer: Value = serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
        let png = base64::engine::general_purpose::STANDARD
            .decode(answer["value"].as_str().unwrap())
            .unwrap();
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = agent()
            .delete(&format!("{}/session/{}", self.url, self.session))
            .call();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

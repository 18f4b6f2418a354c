//! The shipped `deploy/slurm/season.sbatch` on a real Slurm: a one-node
//! cluster started here (`slurmctld` and `slurmd` from Debian's
//! `slurm-wlm`, which `.ci/run` installs, with a generated `slurm.conf`:
//! no authentication, state and spool in a temporary folder, ports of its
//! own), the script submitted as a 4-task array plus its merge job, and the
//! merged journal and reports compared with a single machine's run of the
//! same season of in-process and external bots. The daemons are stopped
//! whatever happens. Without Slurm the test fails under CI=true and is
//! skipped, saying so, elsewhere.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
    thread,
    time::{Duration, Instant},
};

use tempfile::TempDir;

mod common;
use common::SEASON_FILES;

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A one-node Slurm cluster, stopped when dropped.
struct Cluster {
    dir: TempDir,
}

impl Cluster {
    fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    /// A Slurm command with this cluster's configuration.
    fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(program);
        cmd.env("SLURM_CONF", self.conf());
        cmd
    }

    fn start() -> Option<Cluster> {
        let missing: Vec<&str> = ["slurmctld", "slurmd", "sbatch", "squeue", "sinfo"]
            .into_iter()
            .filter(|p| {
                Command::new("sh")
                    .arg("-c")
                    .arg(format!("command -v {p} || test -x /usr/sbin/{p}"))
                    .output()
                    .map_or(true, |o| !o.status.success())
            })
            .collect();
        if !common::require_tool(
            missing.is_empty(),
            &format!("Slurm ({missing:?})"),
            "slurm-wlm",
        ) {
            return None;
        }
        let dir = TempDir::new().unwrap();
        let d = dir.path();
        for sub in ["state", "spool"] {
            fs::create_dir_all(d.join(sub)).unwrap();
        }
        let host = String::from_utf8(Command::new("hostname").arg("-s").output().unwrap().stdout)
            .unwrap()
            .trim()
            .to_string();
        let user = String::from_utf8(Command::new("id").arg("-un").output().unwrap().stdout)
            .unwrap()
            .trim()
            .to_string();
        let cpus = thread::available_parallelism().map_or(1, |n| n.get());
        // ports of its own, so that no other Slurm on the machine answers
        let port = 20_000 + (std::process::id() % 20_000) as u16;
        let conf = format!(
            "ClusterName=laddertest\n\
             SlurmctldHost={host}\n\
             SlurmctldPort={port}\n\
             SlurmdPort={}\n\
             AuthType=auth/none\n\
             CredType=cred/none\n\
             SlurmUser={user}\n\
             SlurmdUser={user}\n\
             StateSaveLocation={d}/state\n\
             SlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\n\
             SlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/ctld.log\n\
             SlurmdLogFile={d}/d.log\n\
             ProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\n\
             SchedulerType=sched/backfill\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_Core\n\
             ReturnToService=2\n\
             MpiDefault=none\n\
             NodeName={host} CPUs={cpus} State=UNKNOWN\n\
             PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
            port + 1,
            d = d.display()
        );
        let cluster = Cluster { dir };
        fs::write(cluster.conf(), conf).unwrap();
        for daemon in ["/usr/sbin/slurmctld", "/usr/sbin/slurmd"] {
            let status = cluster
                .command(daemon)
                .arg("-f")
                .arg(cluster.conf())
                .status()
                .unwrap();
            assert!(
                status.success(),
                "{daemon} did not start: {}",
                cluster.logs()
            );
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let out = cluster
                .command("sinfo")
                .args(["-h", "-o", "%T"])
                .output()
                .unwrap();
            if String::from_utf8_lossy(&out.stdout).trim() == "idle" {
                return Some(cluster);
            }
            assert!(
                Instant::now() < deadline,
                "the node never became idle: {}",
                cluster.logs()
            );
            thread::sleep(Duration::from_millis(200));
        }
    }

    fn logs(&self) -> String {
        ["ctld.log", "d.log"]
            .iter()
            .map(|f| fs::read_to_string(self.dir.path().join(f)).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Waits until no job is queued or running.
    fn wait_idle(&self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        loop {
            let out = self
                .command("squeue")
                .args(["-h", "-o", "%i %T"])
                .output()
                .unwrap();
            let queue = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if out.status.success() && queue.is_empty() {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "jobs still queued: {queue}\n{}",
                self.logs()
            );
            thread::sleep(Duration::from_millis(300));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for pid_file in ["slurmd.pid", "slurmctld.pid"] {
            if let Ok(pid) = fs::read_to_string(self.dir.path().join(pid_file)) {
                let _ = Command::new("kill").arg(pid.trim()).status();
            }
        }
        thread::sleep(Duration::from_millis(300));
    }
}

/// A season of in-process bots, the compiled test bot and a Python bot.
fn config(dir: &Path) -> PathBuf {
    let testbot = common::testbot();
    let text = format!(
        r#"
[season]
name = "cluster"
game = "troops"
games_per_pair = 20
seed = 12
sandbox = "none"

[[bot]]
name = "nash"
builtin = "nash"

[[bot]]
name = "random"
builtin = "random"

[[bot]]
name = "program"
command = ["{testbot}"]

[[bot]]
name = "python"
command = ["python3", "{ROOT}/bots/python/troops_bot.py"]
"#
    );
    let path = dir.join("cluster.toml");
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_sbatch_script_splits_a_season_over_an_array_and_merges_it_exactly() {
    let Some(cluster) = Cluster::start() else {
        return;
    };
    let work = TempDir::new().unwrap();
    let cfg = config(work.path());
    let submitted = cluster
        .command("bash")
        .arg(Path::new(ROOT).join("deploy/slurm/season.sbatch"))
        .arg(&cfg)
        .arg("4")
        .current_dir(work.path())
        .env("LADDER", LADDER)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&submitted.stdout);
    assert!(
        submitted.status.success() && said.contains("submitted shards as job"),
        "{said}\n{}",
        String::from_utf8_lossy(&submitted.stderr)
    );
    cluster.wait_idle(Duration::from_secs(300));
    let outputs: Vec<String> = fs::read_dir(work.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".out"))
        .map(|e| fs::read_to_string(e.path()).unwrap())
        .collect();
    assert_eq!(outputs.len(), 5, "4 shards and a merge: {outputs:?}");
    let merged = work.path().join("reports/cluster");
    for k in 1..=4 {
        assert!(merged.join(format!("shards/{k}-of-4/games.jsonl")).exists());
    }
    assert!(
        merged.join("games.jsonl").exists(),
        "the merge job did not run: {outputs:?}\n{}",
        cluster.logs()
    );

    let one = work.path().join("one");
    let out = Command::new(LADDER)
        .arg("run")
        .arg(&cfg)
        .args(["--quiet", "--reports"])
        .arg(&one)
        .output()
        .unwrap();
    assert!(out.status.success());
    for f in SEASON_FILES {
        assert!(
            fs::read(one.join("cluster").join(f)).unwrap() == fs::read(merged.join(f)).unwrap(),
            "{f} differs from a single machine's"
        );
    }
}

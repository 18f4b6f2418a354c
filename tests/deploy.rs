//! The shipped files for running seasons elsewhere. Kubernetes cannot run
//! here, so `deploy/k8s/season-job.yaml` is parsed and checked (an Indexed
//! Job whose completions, parallelism and LADDER_SHARDS agree, a shared
//! volume, a merge Job), and its pods' command lines are run for real, each
//! with the variables Kubernetes would give it; the merged season must be a
//! single machine's. The `Dockerfile` is checked for its stages, and built
//! where a container engine exists (none does on these machines: said so).

use std::{fs, path::Path, process::Command};

use tempfile::TempDir;
use yaml_rust2::{Yaml, YamlLoader};

const LADDER: &str = env!("CARGO_BIN_EXE_ladder");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn get<'a>(y: &'a Yaml, path: &[&str]) -> &'a Yaml {
    path.iter().fold(y, |y, key| &y[*key])
}

fn strings(y: &Yaml) -> Vec<String> {
    y.as_vec()
        .unwrap_or_else(|| panic!("not a list: {y:?}"))
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect()
}

/// The pod's command with `--reports` pointed at `reports`.
fn with_reports(mut command: Vec<String>, reports: &Path) -> Vec<String> {
    let at = command
        .iter()
        .position(|a| a == "--reports")
        .expect("the pod writes its reports to the volume");
    command[at + 1] = reports.display().to_string();
    command
}

fn run_in_root(command: &[String], env: &[(&str, String)]) -> std::process::Output {
    assert_eq!(command[0], "ladder");
    Command::new(LADDER)
        .args(&command[1..])
        .current_dir(ROOT)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .output()
        .unwrap()
}

#[test]
fn the_kubernetes_indexed_job_and_its_merge_play_a_whole_season() {
    let text = fs::read_to_string(Path::new(ROOT).join("deploy/k8s/season-job.yaml")).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap();
    let kinds: Vec<&str> = docs.iter().map(|d| d["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["PersistentVolumeClaim", "Job", "Job"]);
    let claim = docs[0]["metadata"]["name"].as_str().unwrap();
    assert_eq!(strings(&docs[0]["spec"]["accessModes"]), ["ReadWriteMany"]);

    let season = &docs[1];
    let spec = &season["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    let shards = spec["completions"].as_i64().unwrap();
    assert_eq!(spec["parallelism"].as_i64(), Some(shards));
    let pod = get(spec, &["template", "spec"]);
    assert_eq!(pod["restartPolicy"].as_str(), Some("Never"));
    let container = &pod["containers"][0];
    let env = container["env"].as_vec().unwrap();
    let shards_var = env
        .iter()
        .find(|e| e["name"].as_str() == Some("LADDER_SHARDS"))
        .expect("LADDER_SHARDS is set");
    assert_eq!(
        shards_var["value"].as_str(),
        Some(shards.to_string().as_str())
    );
    let merge = &docs[2];
    let merge_container = &get(&merge["spec"], &["template", "spec"])["containers"][0];
    for (doc, c) in [(season, container), (merge, merge_container)] {
        let pod = get(&doc["spec"], &["template", "spec"]);
        assert_eq!(
            pod["volumes"][0]["persistentVolumeClaim"]["claimName"].as_str(),
            Some(claim)
        );
        assert_eq!(c["volumeMounts"][0]["name"], pod["volumes"][0]["name"]);
        assert_eq!(c["volumeMounts"][0]["mountPath"].as_str(), Some("/reports"));
        assert_eq!(c["workingDir"].as_str(), Some("/ladder"));
    }

    // each pod's command line, as Kubernetes would start it, from the
    // repository (the image's /ladder holds its configs and bots)
    let tmp = TempDir::new().unwrap();
    let reports = tmp.path().join("volume");
    let command = with_reports(strings(&container["command"]), &reports);
    let merge_command = with_reports(strings(&merge_container["command"]), &reports);
    // the merge fails, to be retried, while shards are missing
    let early = run_in_root(&merge_command, &[]);
    assert_eq!(early.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&early.stderr).contains("no shards to merge"));
    for index in 0..shards {
        let out = run_in_root(
            &command,
            &[
                ("JOB_COMPLETION_INDEX", index.to_string()),
                ("LADDER_SHARDS", shards.to_string()),
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            said.contains(&format!("Shard {} of {shards}", index + 1)),
            "{said}"
        );
    }
    let out = run_in_root(&merge_command, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // the same config on one machine
    let config = &command[2];
    let one = tmp.path().join("one");
    let out = Command::new(LADDER)
        .args(["run", config, "--quiet", "--reports"])
        .arg(&one)
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(out.status.success());
    let season_name = fs::read_dir(&one)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    for f in [
        "games.jsonl",
        "leaderboard.md",
        "standings.json",
        "index.html",
    ] {
        assert!(
            fs::read(one.join(&season_name).join(f)).unwrap()
                == fs::read(reports.join(&season_name).join(f)).unwrap(),
            "{f} differs"
        );
    }
}

#[test]
fn the_dockerfile_builds_ladder_into_a_slim_image_with_python_and_bubblewrap() {
    let text = fs::read_to_string(Path::new(ROOT).join("Dockerfile")).unwrap();
    let froms: Vec<&str> = text.lines().filter(|l| l.starts_with("FROM ")).collect();
    assert_eq!(
        froms.len(),
        2,
        "a build stage and a runtime stage: {froms:?}"
    );
    assert!(froms[0].starts_with("FROM rust:") && froms[0].ends_with(" AS build"));
    assert!(froms[1].contains("-slim"));
    let runtime = &text[text.rfind("FROM ").unwrap()..];
    for needed in [
        "python3",
        "bubblewrap",
        "COPY --from=build /src/target/release/ladder /usr/local/bin/ladder",
        "COPY configs ./configs",
        "COPY bots ./bots",
        "COPY games ./games",
        "WORKDIR /ladder",
        "ENTRYPOINT [\"ladder\"]",
    ] {
        assert!(
            runtime.contains(needed),
            "the runtime stage lacks `{needed}`"
        );
    }
    // ladder runs as a user in the image, so that a bot's process limit holds
    let user = runtime
        .find("\nUSER ladder")
        .expect("the image runs as `ladder`");
    assert!(user < runtime.find("ENTRYPOINT").unwrap());
    // the build stage copies what cargo reads to build ladder: the manifest,
    // the lock, the build script, the sources, and the folders of the
    // targets Cargo.toml lists (the test bot example, the benches)
    let build = &text[..text.rfind("FROM ").unwrap()];
    let copied: Vec<&str> = build
        .lines()
        .filter(|l| l.starts_with("COPY "))
        .flat_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words[1..words.len() - 1].to_vec()
        })
        .collect();
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
        "src",
        "tests",
        "benches",
    ] {
        if Path::new(ROOT).join(needed).exists() {
            assert!(
                copied.contains(&needed),
                "the build stage does not copy {needed}"
            );
        }
    }
    // every file the build stage copies exists
    for line in text
        .lines()
        .filter(|l| l.starts_with("COPY ") && !l.contains("--from"))
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        for source in &words[1..words.len() - 1] {
            assert!(Path::new(ROOT).join(source).exists(), "{line}: no {source}");
        }
    }
    // an engine that runs, with the base images at hand (CI has no network to pull them)
    let bases: Vec<String> = froms
        .iter()
        .map(|f| f.split_whitespace().nth(1).unwrap().to_string())
        .collect();
    let works = |engine: &str, args: &[&str]| {
        Command::new(engine)
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let engine = ["docker", "podman"]
        .into_iter()
        .find(|e| works(e, &["info"]));
    match engine {
        Some(engine)
            if bases
                .iter()
                .all(|b| works(engine, &["image", "inspect", b])) =>
        {
            let built = Command::new(engine)
                .args(["build", "-t", "ladder-test", ROOT])
                .status()
                .unwrap();
            assert!(built.success(), "{engine} build failed");
            let out = Command::new(engine)
                .args(["run", "--rm", "ladder-test", "--version"])
                .output()
                .unwrap();
            assert!(String::from_utf8_lossy(&out.stdout).starts_with("ladder "));
        }
        Some(engine) => eprintln!(
            "{engine} runs here but the base images {bases:?} are not present (and CI cannot \
             pull them): the Dockerfile was checked, not built"
        ),
        None => eprintln!(
            "no running container engine (docker, podman) on this machine: the Dockerfile was \
             checked, not built"
        ),
    }
}

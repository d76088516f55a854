//! The Slurm scripts of `tools/slurm/` on a real one-node cluster (docs/cluster.md §6): the
//! test starts `munged`, `slurmctld` and `slurmd` on localhost from a `slurm.conf` it writes
//! into a temporary directory, submits a 4-shard self-play array job and its merge with
//! `tools/slurm/submit.sh`, waits for both, and checks that the merged file is byte for byte
//! what the unsharded `selfplay` writes with the same settings.
//!
//! Needs Debian's `slurm-wlm` and `munge` and root (the daemons run as root with their state
//! in the temporary directory). Without them the test writes `SKIPPED slurm: ...` on stderr
//! and passes, unless `CI` is set (as `.ci/run` sets it, after installing the packages):
//! then it fails. When the packages are there, a daemon that cannot start fails the test
//! with the reason and the daemons' logs. The daemons are stopped (by their process ids)
//! and the directory removed when the test ends, whether it passed or not (a failed test
//! keeps the directory and says where).
//!
//! A second test runs the array scripts without a cluster, with the environment Slurm gives
//! an array task, to check how they derive `--shard K/N`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-tianyuan");

fn tools() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/slurm")
}

/// Where a program is: on `PATH` or in the system directories (daemons are in /usr/sbin,
/// which a non-login `PATH` may lack).
fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin", "/bin"].map(PathBuf::from))
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// Skips (without `CI`) or fails (with `CI`) for a missing prerequisite.
fn unavailable(why: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("slurm test cannot run in CI: {why}");
    }
    eprintln!("SKIPPED slurm: {why}");
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// A free TCP port on localhost (bound and released; another process could take it in
/// between, which a test run can live with).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The last `n` lines of a file, or a note that it is missing.
fn tail(p: &Path, n: usize) -> String {
    match std::fs::read_to_string(p) {
        Ok(t) => {
            let lines: Vec<&str> = t.lines().collect();
            lines[lines.len().saturating_sub(n)..].join("\n")
        }
        Err(e) => format!("({}: {e})", p.display()),
    }
}

/// A one-node cluster: the daemons' processes and the directory with their configuration,
/// state and logs.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<(&'static str, Child)>,
    /// Keep the directory (a daemon did not start: its logs are worth a look).
    keep: bool,
    programs: std::collections::HashMap<&'static str, PathBuf>,
}

impl Cluster {
    /// Starts munged, slurmctld and slurmd, and waits until the node is idle.
    ///
    /// Errors: which daemon did not start, and why (its output and log).
    fn start(
        programs: std::collections::HashMap<&'static str, PathBuf>,
    ) -> Result<Cluster, String> {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("tianyuan-slurm-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["state", "spool", "work"] {
            std::fs::create_dir_all(dir.join(sub)).map_err(|e| e.to_string())?;
        }
        // munged refuses a socket in a directory that not everybody may enter.
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| e.to_string())?;
        let mut c = Cluster {
            conf: dir.join("slurm.conf"),
            dir,
            daemons: Vec::new(),
            programs,
            keep: false,
        };
        match c.boot() {
            Ok(()) => Ok(c),
            Err(e) => {
                c.keep = true;
                Err(e)
            }
        }
    }

    /// [`Cluster::start`] once the directories exist.
    fn boot(&mut self) -> Result<(), String> {
        use std::os::unix::fs::PermissionsExt;
        let c = self;
        // The munge key: 1024 random bytes, readable by its owner only.
        let key = c.dir.join("munge.key");
        let mut bytes = vec![0u8; 1024];
        {
            use std::io::Read;
            std::fs::File::open("/dev/urandom")
                .and_then(|mut f| f.read_exact(&mut bytes))
                .map_err(|e| format!("cannot read /dev/urandom: {e}"))?;
        }
        std::fs::write(&key, &bytes).map_err(|e| e.to_string())?;
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| e.to_string())?;
        let socket = c.dir.join("munge.socket");
        let mut munged = Command::new(&c.programs["munged"]);
        munged
            .arg("--foreground")
            .arg(format!("--key-file={}", key.display()))
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--pid-file={}", c.dir.join("munged.pid").display()))
            .arg(format!("--log-file={}", c.dir.join("munged.log").display()))
            .arg(format!(
                "--seed-file={}",
                c.dir.join("munged.seed").display()
            ));
        c.spawn("munged", &mut munged)?;
        c.wait_for(
            "munged to create its socket",
            Duration::from_secs(15),
            |_| socket.exists(),
        )?;
        // The node as slurmd sees it (its real host name, CPUs, memory), reachable at
        // 127.0.0.1.
        let probe = Command::new(&c.programs["slurmd"])
            .arg("-C")
            .output()
            .map_err(|e| format!("slurmd -C: {e}"))?;
        let text = String::from_utf8_lossy(&probe.stdout).to_string();
        let node_line = text
            .lines()
            .find(|l| l.starts_with("NodeName="))
            .ok_or_else(|| format!("slurmd -C printed no NodeName line: {text}"))?
            .trim()
            .to_string();
        let node = node_line["NodeName=".len()..]
            .split_whitespace()
            .next()
            .unwrap_or("localhost")
            .to_string();
        let d = c.dir.display().to_string();
        let conf = format!(
            "# Written by tests/slurm.rs: a one-node cluster on localhost.\n\
             ClusterName=tianyuantest\n\
             SlurmctldHost={node}(127.0.0.1)\n\
             SlurmctldPort={ctld}\n\
             SlurmdPort={slurmd}\n\
             SlurmUser=root\n\
             SlurmdUser=root\n\
             AuthType=auth/munge\n\
             AuthInfo=socket={d}/munge.socket\n\
             CredType=cred/munge\n\
             StateSaveLocation={d}/state\n\
             SlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\n\
             SlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\n\
             SlurmdLogFile={d}/slurmd.log\n\
             ProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\n\
             JobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\n\
             JobCompType=jobcomp/none\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_CPU\n\
             SchedulerType=sched/builtin\n\
             SchedulerParameters=sched_interval=2\n\
             MpiDefault=none\n\
             SwitchType=switch/none\n\
             MailProg=/bin/true\n\
             ReturnToService=2\n\
             {node_line} NodeAddr=127.0.0.1 State=UNKNOWN\n\
             PartitionName=test Nodes={node} Default=YES MaxTime=INFINITE State=UP\n",
            ctld = free_port(),
            slurmd = free_port(),
        );
        std::fs::write(&c.conf, conf).map_err(|e| e.to_string())?;
        let mut ctld = Command::new(&c.programs["slurmctld"]);
        ctld.args(["-D", "-i", "-f"]).arg(&c.conf);
        c.spawn("slurmctld", &mut ctld)?;
        let mut slurmd = Command::new(&c.programs["slurmd"]);
        slurmd.args(["-D", "-f"]).arg(&c.conf).args(["-N", &node]);
        c.spawn("slurmd", &mut slurmd)?;
        c.wait_for("the node to be idle", Duration::from_secs(40), |c| {
            c.run("sinfo", &["-h", "-o", "%T"])
                .is_ok_and(|s| s.trim() == "idle")
        })?;
        Ok(())
    }

    /// Starts a daemon with its output in `<name>.out`.
    fn spawn(&mut self, name: &'static str, cmd: &mut Command) -> Result<(), String> {
        let out = std::fs::File::create(self.dir.join(format!("{name}.out")))
            .map_err(|e| e.to_string())?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let child = cmd
            .env("SLURM_CONF", &self.conf)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start {name}: {e}"))?;
        self.daemons.push((name, child));
        Ok(())
    }

    /// Polls `ready` every 200 ms until it holds; fails when a daemon has exited or after
    /// `limit`, with the daemons' output and logs.
    fn wait_for(
        &mut self,
        what: &str,
        limit: Duration,
        ready: impl Fn(&Cluster) -> bool,
    ) -> Result<(), String> {
        let t0 = Instant::now();
        loop {
            if ready(self) {
                return Ok(());
            }
            let exited = self
                .daemons
                .iter_mut()
                .find_map(|(name, child)| match child.try_wait() {
                    Ok(Some(status)) => Some((*name, status)),
                    _ => None,
                });
            if let Some((name, status)) = exited {
                return Err(format!(
                    "{name} exited ({status}) while waiting for {what}\n{}",
                    self.report()
                ));
            }
            if t0.elapsed() > limit {
                return Err(format!(
                    "waited {} s for {what}\n{}",
                    limit.as_secs(),
                    self.report()
                ));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// A Slurm client command against this cluster; its stdout, or its stderr as the error.
    fn run(&self, program: &str, args: &[&str]) -> Result<String, String> {
        let p = find(program).ok_or_else(|| format!("{program} not found"))?;
        let o = Command::new(p)
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .output()
            .map_err(|e| format!("{program}: {e}"))?;
        if o.status.success() {
            Ok(String::from_utf8_lossy(&o.stdout).into_owned())
        } else {
            Err(format!(
                "{program} {args:?}: {}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ))
        }
    }

    /// The daemons' output and logs, and the jobs' output files, for a failure message.
    fn report(&self) -> String {
        let mut s = String::new();
        for f in [
            "munged.out",
            "slurmctld.out",
            "slurmctld.log",
            "slurmd.out",
            "slurmd.log",
        ] {
            s.push_str(&format!("--- {f}\n{}\n", tail(&self.dir.join(f), 15)));
        }
        if let Ok(rd) = std::fs::read_dir(self.dir.join("work")) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.starts_with("slurm-") {
                    s.push_str(&format!("--- {name}\n{}\n", tail(&e.path(), 15)));
                }
            }
        }
        s.push_str(&format!("(all in {})", self.dir.display()));
        s
    }

    /// The states of a job's tasks (`COMPLETED`, `PENDING`, ...) and the reasons given.
    fn job_states(&self, id: &str) -> Vec<(String, String)> {
        let text = self
            .run("scontrol", &["show", "job", "-o", id])
            .unwrap_or_default();
        text.lines()
            .map(|l| {
                let field = |k: &str| {
                    l.split_whitespace()
                        .find_map(|w| w.strip_prefix(k))
                        .unwrap_or("")
                        .to_string()
                };
                (field("JobState="), field("Reason="))
            })
            .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Jobs first (their steps are not our children), then the daemons, newest first.
        // The clients are asked only while slurmctld runs (else they wait for it).
        let ctld_up = self
            .daemons
            .iter_mut()
            .any(|(n, c)| *n == "slurmctld" && matches!(c.try_wait(), Ok(None)));
        if let Some(ids) = ctld_up
            .then(|| self.run("squeue", &["-h", "-o", "%A"]).ok())
            .flatten()
        {
            let ids: Vec<&str> = ids.split_whitespace().collect();
            if !ids.is_empty() {
                let _ = self.run("scancel", &ids);
                std::thread::sleep(Duration::from_secs(1));
            }
        }
        for (_, child) in self.daemons.iter_mut().rev() {
            if !matches!(child.try_wait(), Ok(None)) {
                continue;
            }
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let t0 = Instant::now();
            while t0.elapsed() < Duration::from_secs(5) {
                if let Ok(Some(_)) = child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        if self.keep || std::thread::panicking() {
            eprintln!(
                "slurm test: the cluster's files are kept in {}",
                self.dir.display()
            );
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Tiny self-play: 8 games at a few hundred nodes a move.
const SELFPLAY: &[&str] = &[
    "--games",
    "8",
    "--nodes",
    "300",
    "--spread",
    "100",
    "--balance-nodes",
    "500",
    "--hash-mb",
    "4",
    "--seed",
    "7",
];

#[test]
fn four_shard_selfplay_array_and_its_merge_on_a_one_node_cluster() {
    let mut programs = std::collections::HashMap::new();
    let mut missing = Vec::new();
    for p in [
        "munged",
        "slurmctld",
        "slurmd",
        "sbatch",
        "scontrol",
        "squeue",
        "scancel",
        "sinfo",
    ] {
        match find(p) {
            Some(path) => {
                programs.insert(p, path);
            }
            None => missing.push(p),
        }
    }
    if !missing.is_empty() {
        return unavailable(&format!(
            "{} not found (Debian packages slurm-wlm and munge; .ci/run installs them)",
            missing.join(", ")
        ));
    }
    if !is_root() {
        return unavailable("the one-node cluster runs its daemons as root; run as root");
    }
    let t0 = Instant::now();
    let cluster = match Cluster::start(programs) {
        Ok(c) => c,
        Err(why) => panic!("the Slurm daemons could not start: {why}"),
    };
    let started = t0.elapsed();
    let work = cluster.dir.join("work");
    let out = work.join("run");
    let submit = Command::new("bash")
        .arg(tools().join("submit.sh"))
        .args(["selfplay", "4"])
        .arg(&out)
        .args(SELFPLAY)
        .current_dir(&work)
        .env("SLURM_CONF", &cluster.conf)
        .env("TIANYUAN", BIN)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&submit.stdout).to_string();
    assert!(
        submit.status.success(),
        "submit.sh failed: {said}{}\n{}",
        String::from_utf8_lossy(&submit.stderr),
        cluster.report()
    );
    let ids: Vec<&str> = said.split_whitespace().collect();
    assert!(
        ids.len() == 4 && ids[0] == "array" && ids[2] == "merge",
        "submit.sh said: {said}"
    );
    let (array, merge) = (ids[1].to_string(), ids[3].to_string());
    // Wait for the merge (it runs only once every shard has succeeded).
    let limit = Duration::from_secs(120);
    let t1 = Instant::now();
    let final_state = loop {
        let states = cluster.job_states(&merge);
        let (state, reason) = states.first().cloned().unwrap_or_default();
        let done = !matches!(
            state.as_str(),
            "PENDING" | "RUNNING" | "CONFIGURING" | "COMPLETING" | ""
        );
        if done || reason == "DependencyNeverSatisfied" {
            break (state, reason);
        }
        assert!(
            t1.elapsed() < limit,
            "the merge job {merge} is still {state} ({reason}) after {} s; array: {:?}\n{}",
            limit.as_secs(),
            cluster.job_states(&array),
            cluster.report()
        );
        std::thread::sleep(Duration::from_millis(250));
    };
    let tasks = cluster.job_states(&array);
    assert_eq!(
        final_state.0,
        "COMPLETED",
        "merge job {merge}: {final_state:?}; array job {array}: {tasks:?}\n{}",
        cluster.report()
    );
    // Each task completed and left its shard, with its header.
    for k in 0..4 {
        let p = out.join(format!("selfplay-shard-{k}-of-4.txt"));
        let text = std::fs::read_to_string(&p)
            .unwrap_or_else(|e| panic!("{}: {e}\n{}", p.display(), cluster.report()));
        assert!(
            text.contains(&format!(
                "\"kind\":\"selfplay\",\"k\":{k},\"n\":4,\"total\":8"
            )) && text.ends_with("# shard-end {\"records\":2}\n"),
            "{text}"
        );
    }
    let merged = std::fs::read_to_string(out.join("selfplay.txt"))
        .unwrap_or_else(|e| panic!("no merged file: {e}\n{}", cluster.report()));
    let jobs = t1.elapsed();
    // The same run without Slurm and without shards.
    let whole = work.join("unsharded.txt");
    let o = Command::new(BIN)
        .arg("selfplay")
        .args(SELFPLAY)
        .args(["--concurrency", "2", "--quiet", "--out"])
        .arg(&whole)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let whole = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(
        whole.lines().filter(|l| !l.starts_with('#')).count(),
        8,
        "{whole}"
    );
    assert_eq!(
        merged, whole,
        "the merged shards differ from the unsharded run"
    );
    eprintln!(
        "slurm: cluster up in {:.1} s, array and merge done in {:.1} s",
        started.as_secs_f64(),
        jobs.as_secs_f64()
    );
}

/// An array script run as Slurm runs a task (its environment set by hand, no cluster):
/// `--array=3-6` is `--shard 0/4`..`3/4`; with `SHARDS` the task id is K (a rerun of one
/// shard); a stepped array is refused; outside an array job the script says how to submit
/// it.
#[test]
fn array_scripts_derive_the_shard_from_the_task() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("slurm-scripts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let task = |id: &str, min: &str, max: &str, count: &str, shards: &str| {
        let mut c = Command::new("bash");
        c.arg(tools().join("selfplay.sbatch"))
            .arg(&dir)
            .args([
                "--games",
                "4",
                "--nodes",
                "100",
                "--balance-nodes",
                "100",
                "--hash-mb",
                "1",
            ])
            .env("TIANYUAN", BIN);
        for (k, v) in [
            ("SLURM_ARRAY_TASK_ID", id),
            ("SLURM_ARRAY_TASK_MIN", min),
            ("SLURM_ARRAY_TASK_MAX", max),
            ("SLURM_ARRAY_TASK_COUNT", count),
            ("SHARDS", shards),
        ] {
            if v.is_empty() {
                c.env_remove(k);
            } else {
                c.env(k, v);
            }
        }
        c.output().unwrap()
    };
    let o = task("5", "3", "6", "4", "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(dir.join("selfplay-shard-2-of-4.txt")).unwrap();
    assert!(
        text.contains("\"k\":2,\"n\":4,\"total\":4,\"first\":2,\"count\":1"),
        "{text}"
    );
    let o = task("2", "0", "6", "4", "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("one contiguous range"));
    // A rerun of one shard: SHARDS=4 sbatch --array=3 gives --shard 3/4.
    let o = task("3", "3", "3", "1", "4");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(dir.join("selfplay-shard-3-of-4.txt")).unwrap();
    assert!(
        text.contains("\"k\":3,\"n\":4,\"total\":4,\"first\":3,\"count\":1"),
        "{text}"
    );
    let o = task("", "", "", "", "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("sbatch --array=0-(N-1)"));
    // merge.sbatch names the N shard files of its kind.
    let o = Command::new("bash")
        .arg(tools().join("merge.sbatch"))
        .args(["selfplay", "4"])
        .arg(&dir)
        .env("TIANYUAN", BIN)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("selfplay-shard-0-of-4.txt"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

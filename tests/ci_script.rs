//! `.ci/run` (issues 34, 33 and 50) with stand-ins for `apt-get`, `sudo`, `cargo` and the
//! Windows step (`.ci/windows`, replaced through `CI_WINDOWS_STEP`) on a `PATH` of its own:
//! it installs only the packages whose commands are missing (Chromium for the browser test,
//! Slurm and munge for the Slurm test, MinGW-w64 and Wine for the Windows tests) in one apt
//! call, keeps apt's and dpkg's output to itself unless the installation fails, fails when a
//! command is still missing (without running the tests), checks formatting and lints, builds
//! the engine without the web board and checks that it plays a move, runs the Windows step,
//! runs `cargo test` with `CI` set, and then the wall-clock tests on their own.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A scratch directory with a `bin/` that holds the stand-ins and the few real tools the
/// script uses.
struct Sandbox {
    dir: PathBuf,
}

/// A line apt-get's stand-in prints many times when it installs, as dpkg does.
const NOISE: &str = "Unpacking chromium-common (148.0) over (147.0) ...";

impl Sandbox {
    fn new(name: &str) -> Sandbox {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("ci-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        for tool in ["dirname", "id", "mktemp", "cat", "rm", "env"] {
            let real = ["/usr/bin", "/bin"]
                .iter()
                .map(|d| Path::new(d).join(tool))
                .find(|p| p.exists())
                .unwrap_or_else(|| panic!("no {tool} in /usr/bin or /bin"));
            std::os::unix::fs::symlink(real, dir.join("bin").join(tool)).unwrap();
        }
        let s = Sandbox { dir };
        let log = s.log_path();
        // cargo: logs its arguments; `build` puts the engine stand-in (`engine`, see
        // `engine`) where `--target-dir` says the release binary goes.
        s.script(
            "cargo",
            &format!(
                r#"echo "cargo $* CI=${{CI:-}}" >> '{log}'
[ "$1" = fmt ] && [ -e '{dir}/cargo-fmt-fails' ] && {{ echo "Diff in src/lib.rs"; exit 1; }}
case " $* " in *" build "*)
  d=target; prev=""
  for a in "$@"; do [ "$prev" = "--target-dir" ] && d="$a"; prev="$a"; done
  /bin/mkdir -p "$d/release"
  /bin/cp '{dir}/engine' "$d/release/pbrain-tianyuan"
  /bin/chmod +x "$d/release/pbrain-tianyuan" ;;
esac
"#,
                log = log.display(),
                dir = s.dir.display(),
            ),
        );
        s.engine(ENGINE);
        // The Windows step: logs that it ran, with CI as it saw it.
        s.script(
            "windows-step",
            &format!(
                "echo \"windows-step CI=${{CI:-}}\" >> '{log}'\n",
                log = log.display()
            ),
        );
        s.script("sudo", "exec \"$@\"\n");
        // apt-get: logs its arguments; `install` prints dpkg-like noise and, unless told
        // to fail or to install nothing, puts the commands of the packages on PATH.
        let bin = s.dir.join("bin");
        s.script(
            "apt-get",
            &format!(
                r#"echo "apt-get $*" >> '{log}'
[ -e '{dir}/apt-fails' ] && {{ echo "E: Unable to locate package"; exit 100; }}
case " $* " in *" install "*)
  for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do echo "{NOISE}"; done
  [ -e '{dir}/apt-installs-nothing' ] && exit 0
  for p in "$@"; do
    case "$p" in
      chromium) printf '#!/bin/sh\n' > '{bin}/chromium'; /bin/chmod +x '{bin}/chromium' ;;
      chromium-driver) printf '#!/bin/sh\n' > '{bin}/chromedriver'; /bin/chmod +x '{bin}/chromedriver' ;;
      slurm-wlm) [ -e '{dir}/apt-no-slurm' ] || for c in slurmctld slurmd sbatch; do
          printf '#!/bin/sh\n' > "{bin}/$c"; /bin/chmod +x "{bin}/$c"; done ;;
      munge) printf '#!/bin/sh\n' > '{bin}/munged'; /bin/chmod +x '{bin}/munged' ;;
      gcc-mingw-w64-x86-64) printf '#!/bin/sh\n' > '{bin}/x86_64-w64-mingw32-gcc'; /bin/chmod +x '{bin}/x86_64-w64-mingw32-gcc' ;;
      wine64) [ -e '{dir}/apt-no-wine' ] || {{ printf '#!/bin/sh\n' > '{bin}/wine'; /bin/chmod +x '{bin}/wine'; }} ;;
    esac
  done ;;
esac
"#,
                log = log.display(),
                dir = s.dir.display(),
                bin = bin.display(),
            ),
        );
        s
    }

    /// Stand-ins for commands that are already installed (`bin/` is on `PATH`).
    fn present(&self, commands: &[&str]) {
        for c in commands {
            self.script(c, "");
        }
    }

    /// The protocol engine that the stand-in `cargo build` makes (a shell script).
    fn engine(&self, body: &str) {
        std::fs::write(self.dir.join("engine"), format!("#!/bin/sh\n{body}")).unwrap();
    }

    /// Where `.ci/run` builds the engine without the web board (`CI_NO_WEB_TARGET`).
    fn no_web_target(&self) -> PathBuf {
        self.dir.join("no-web")
    }

    fn log_path(&self) -> PathBuf {
        self.dir.join("calls.log")
    }

    /// Writes an executable shell script `bin/<name>`.
    fn script(&self, name: &str, body: &str) {
        let p = self.dir.join("bin").join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// Runs `.ci/run` with only the sandbox on `PATH`; returns (status, stdout, stderr,
    /// the stand-ins' calls).
    fn run(&self) -> (i32, String, String, Vec<String>) {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run");
        let out = Command::new("/bin/bash")
            .arg(&script)
            .env_clear()
            .env("PATH", self.dir.join("bin"))
            .env("CI_SBIN_DIRS", self.dir.join("sbin"))
            .env("CI_NO_WEB_TARGET", self.no_web_target())
            .env("CI_WINDOWS_STEP", self.dir.join("bin/windows-step"))
            .env("HOME", &self.dir)
            .output()
            .unwrap();
        let calls = std::fs::read_to_string(self.log_path())
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            calls,
        )
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// An engine stand-in that answers as the real one does: `OK` to START, a move to BEGIN,
/// and exits on END; it writes what it reads to `engine.in` beside itself.
const ENGINE: &str = r#"log="$(dirname "$0")/../../engine.in"
while read -r l; do
  echo "$l" >> "$log"
  case "$l" in START*) echo OK ;; BEGIN*) echo "DEBUG thinking"; echo 7,7 ;; END*) exit 0 ;; esac
done
"#;

/// The last two cargo calls of a run that gets through: the README's test command, then the
/// wall-clock tests alone.
fn cargo_steps_end() -> [String; 2] {
    [
        "cargo test CI=true".to_string(),
        "cargo test -- --ignored --test-threads=1 wall_clock_ CI=true".to_string(),
    ]
}

const SLURM: [&str; 4] = ["slurmctld", "slurmd", "sbatch", "munged"];
const WINDOWS: [&str; 2] = ["x86_64-w64-mingw32-gcc", "wine"];

/// The `apt-get install` calls.
fn installs(calls: &[String]) -> Vec<&String> {
    calls.iter().filter(|c| c.contains(" install ")).collect()
}

#[test]
fn installs_what_is_missing_quietly_then_tests_under_ci() {
    let s = Sandbox::new("all");
    let (code, out, err, calls) = s.run();
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains(NOISE) && !err.contains(NOISE), "{out}{err}");
    assert!(
        out.contains(
            "installing chromium chromium-driver slurm-wlm munge gcc-mingw-w64-x86-64 wine64 \
             for the browser, Slurm and Windows tests"
        ),
        "{out}"
    );
    let i = installs(&calls);
    assert_eq!(i.len(), 1, "one apt call for everything: {calls:?}");
    assert!(
        i[0].ends_with(" chromium chromium-driver slurm-wlm munge gcc-mingw-w64-x86-64 wine64"),
        "{calls:?}"
    );
    assert!(i[0].contains("-qq"), "{calls:?}");
    assert_eq!(calls[calls.len() - 2..], cargo_steps_end(), "{calls:?}");
}

#[test]
fn installs_only_the_missing_packages() {
    let s = Sandbox::new("driver");
    s.present(&["chromium"]);
    s.present(&SLURM);
    s.present(&WINDOWS);
    let (code, out, err, calls) = s.run();
    assert_eq!(code, 0, "{out}{err}");
    let i = installs(&calls);
    assert_eq!(i.len(), 1, "{calls:?}");
    assert!(i[0].ends_with(" -qq chromium-driver"), "{calls:?}");
    // Only munge missing: munge alone (slurm-wlm is there).
    let s = Sandbox::new("munge");
    s.present(&["chromium", "chromedriver", "slurmctld", "slurmd", "sbatch"]);
    s.present(&WINDOWS);
    let (code, out, err, calls) = s.run();
    assert_eq!(code, 0, "{out}{err}");
    let i = installs(&calls);
    assert_eq!(i.len(), 1, "{calls:?}");
    assert!(i[0].ends_with(" -qq munge"), "{calls:?}");
    // One Slurm command missing is the whole slurm-wlm package.
    let s = Sandbox::new("sbatch");
    s.present(&["chromium", "chromedriver", "slurmctld", "slurmd", "munged"]);
    s.present(&WINDOWS);
    let (code, _, _, calls) = s.run();
    assert_eq!(code, 0);
    assert!(installs(&calls)[0].ends_with(" -qq slurm-wlm"), "{calls:?}");
    // The daemons found in an sbin directory off PATH count as installed.
    let s = Sandbox::new("sbin");
    s.present(&["chromium", "chromedriver", "sbatch"]);
    s.present(&WINDOWS);
    std::fs::create_dir_all(s.dir.join("sbin")).unwrap();
    for d in ["slurmctld", "slurmd", "munged"] {
        s.script(&format!("../sbin/{d}"), "");
    }
    let (code, out, err, calls) = s.run();
    assert_eq!(code, 0, "{out}{err}");
    assert!(!calls.iter().any(|c| c.starts_with("apt-get")), "{calls:?}");
    // With everything present apt is not called at all.
    let s = Sandbox::new("none");
    s.present(&["chromium", "chromedriver"]);
    s.present(&SLURM);
    s.present(&WINDOWS);
    let (code, out, err, calls) = s.run();
    assert_eq!(code, 0, "{out}{err}");
    assert!(!calls.iter().any(|c| c.starts_with("apt-get")), "{calls:?}");
    assert!(!out.contains("installing"), "{out}");
    assert_eq!(calls[calls.len() - 2..], cargo_steps_end(), "{calls:?}");
}

#[test]
fn fails_when_a_command_is_still_missing() {
    // The installation "succeeds" but puts nothing on PATH: fail before the tests run.
    let s = Sandbox::new("nothing");
    std::fs::write(s.dir.join("apt-installs-nothing"), "").unwrap();
    let (code, out, err, calls) = s.run();
    assert_ne!(code, 0, "{out}{err}");
    assert!(err.contains("chromium is missing"), "{err}");
    assert!(
        !calls.iter().any(|c| c == "cargo test CI=true"),
        "{calls:?}"
    );
    // Chromium arrives, Slurm does not.
    let s = Sandbox::new("noslurm");
    std::fs::write(s.dir.join("apt-no-slurm"), "").unwrap();
    let (code, out, err, calls) = s.run();
    assert_ne!(code, 0, "{out}{err}");
    assert!(
        err.contains("error: slurmctld is missing (Debian packages slurm-wlm and munge): the Slurm test cannot run"),
        "{err}"
    );
    assert!(
        !calls.iter().any(|c| c.starts_with("cargo test")),
        "{calls:?}"
    );
    // The installation fails: its output is shown, and the tests do not run.
    let s = Sandbox::new("fails");
    std::fs::write(s.dir.join("apt-fails"), "").unwrap();
    let (code, out, err, calls) = s.run();
    assert_ne!(code, 0, "{out}{err}");
    assert!(err.contains("E: Unable to locate package"), "{err}");
    assert!(
        err.contains(
            "installing chromium chromium-driver slurm-wlm munge gcc-mingw-w64-x86-64 wine64 failed"
        ),
        "{err}"
    );
    assert!(
        !calls.iter().any(|c| c.starts_with("cargo test")),
        "{calls:?}"
    );
}

/// Issue 32: the build without the web board (`--no-default-features`) is built apart and
/// must answer BEGIN with a move before the tests run.
#[test]
fn the_build_without_the_web_board_must_play() {
    let s = Sandbox::new("noweb");
    s.present(&["chromium", "chromedriver"]);
    s.present(&SLURM);
    s.present(&WINDOWS);
    let (code, out, err, calls) = s.run();
    assert_eq!(code, 0, "{out}{err}");
    let build = format!(
        "cargo build --release --no-default-features --target-dir {} CI=true",
        s.no_web_target().display()
    );
    let b = calls.iter().position(|c| *c == build);
    let t = calls.iter().position(|c| c == "cargo test CI=true");
    assert!(b.is_some() && b < t, "{calls:?}");
    assert!(out.contains("no-web build: BEGIN answered 7,7"), "{out}");
    let fed = std::fs::read_to_string(s.dir.join("engine.in")).unwrap();
    let fed: Vec<&str> = fed.lines().collect();
    assert_eq!(fed.first(), Some(&"START 15"), "{fed:?}");
    assert!(fed.contains(&"BEGIN"), "{fed:?}");
    assert_eq!(fed.last(), Some(&"END"), "{fed:?}");
    // An engine that dies without a move (here at START) fails the run before the tests.
    let s = Sandbox::new("noweb-dies");
    s.present(&["chromium", "chromedriver"]);
    s.present(&SLURM);
    s.present(&WINDOWS);
    s.engine("echo OK\nexit 3\n");
    let (code, out, err, calls) = s.run();
    assert_ne!(code, 0, "{out}{err}");
    assert!(
        err.contains("error: the build without the web board (--no-default-features) gave no move after START 15, BEGIN"),
        "{err}"
    );
    assert!(
        !calls.iter().any(|c| c.starts_with("cargo test")),
        "{calls:?}"
    );
}

/// Issue 32: formatting and lints are checked before anything is built, and every cargo step
/// runs in order: fmt, clippy, the build without the web board, the tests, the wall-clock
/// tests alone.
#[test]
fn checks_format_and_lints_then_builds_then_tests() {
    let s = Sandbox::new("steps");
    s.present(&["chromium", "chromedriver"]);
    s.present(&SLURM);
    s.present(&WINDOWS);
    let (code, out, err, calls) = s.run();
    assert_eq!(code, 0, "{out}{err}");
    let cargo: Vec<&String> = calls.iter().filter(|c| c.starts_with("cargo ")).collect();
    let want = [
        "cargo --version CI=".to_string(),
        "cargo fmt --check CI=true".to_string(),
        "cargo clippy --all-targets -- -D warnings CI=true".to_string(),
        format!(
            "cargo build --release --no-default-features --target-dir {} CI=true",
            s.no_web_target().display()
        ),
        "cargo test CI=true".to_string(),
        "cargo test -- --ignored --test-threads=1 wall_clock_ CI=true".to_string(),
    ];
    assert_eq!(cargo, want.iter().collect::<Vec<_>>(), "{calls:?}");
    // A failing step stops the run: here `cargo fmt --check`.
    let s = Sandbox::new("fmt-fails");
    s.present(&["chromium", "chromedriver"]);
    s.present(&SLURM);
    s.present(&WINDOWS);
    std::fs::write(s.dir.join("cargo-fmt-fails"), "").unwrap();
    let (code, out, err, calls) = s.run();
    assert_ne!(code, 0, "{out}{err}");
    assert!(
        !calls
            .iter()
            .any(|c| c.starts_with("cargo clippy") || c.starts_with("cargo test")),
        "{calls:?}"
    );
}

/// Issue 50: MinGW-w64 and Wine are installed when missing (alone when the rest is there),
/// a missing one after the installation fails the run before the tests, and the Windows
/// step (`.ci/windows`: the package and the Wine prefix) runs with `CI` set after the build
/// without the web board and before the tests.
#[test]
fn the_windows_step_runs_before_the_tests_with_wine_and_mingw_installed() {
    let s = Sandbox::new("windows");
    s.present(&["chromium", "chromedriver"]);
    s.present(&SLURM);
    let (code, out, err, calls) = s.run();
    assert_eq!(code, 0, "{out}{err}");
    let i = installs(&calls);
    assert_eq!(i.len(), 1, "{calls:?}");
    assert!(
        i[0].ends_with(" -qq gcc-mingw-w64-x86-64 wine64"),
        "{calls:?}"
    );
    let step = calls.iter().position(|c| c == "windows-step CI=true");
    let build = calls
        .iter()
        .position(|c| c.starts_with("cargo build --release --no-default-features"));
    let test = calls.iter().position(|c| c == "cargo test CI=true");
    assert!(step.is_some() && build < step && step < test, "{calls:?}");
    assert_eq!(calls[calls.len() - 2..], cargo_steps_end(), "{calls:?}");
    // Wine does not arrive: the run fails before the Windows step and the tests.
    let s = Sandbox::new("nowine");
    s.present(&["chromium", "chromedriver"]);
    s.present(&SLURM);
    std::fs::write(s.dir.join("apt-no-wine"), "").unwrap();
    let (code, out, err, calls) = s.run();
    assert_ne!(code, 0, "{out}{err}");
    assert!(
        err.contains(
            "error: wine is missing (Debian packages gcc-mingw-w64-x86-64 and wine64): \
             the Windows tests cannot run"
        ),
        "{err}"
    );
    assert!(
        !calls
            .iter()
            .any(|c| c.starts_with("windows-step") || c.starts_with("cargo test")),
        "{calls:?}"
    );
}

#!/usr/bin/env python3
"""Builds the Windows x64 engine from Linux and writes the Gomocup package (issue 50).

    tools/gomocup_package.py [--out DIR] [--no-build] [--max-bytes N]

Two builds of the engine without the web board (`--no-default-features`) for
x86_64-pc-windows-gnu, statically linked (`+crt-static`; MinGW's runtime is linked in):

- x86-64-v3 (AVX2, which Gomocup's machines have): the entry,
  DIR/pbrain-tianyuan64.zip;
- x86-64 (the baseline, any 64-bit PC): for older machines,
  DIR/pbrain-tianyuan64-baseline.zip.

Each zip holds `pbrain-tianyuan64.exe` at its root, LICENSE.txt and README.txt, and nothing
else (no DLL: the engine imports only Windows' own DLLs, checked here against
SYSTEM_DLLS with MinGW's objdump; the list is written to DIR/imports.txt). A zip over
--max-bytes (default 8 000 000, Gomocup's 8 MB) is refused: the tool exits with status 1
and leaves no zip behind. DIR defaults to target/gomocup.

Needs rustup's target x86_64-pc-windows-gnu (added here when missing) and the MinGW-w64
toolchain (Debian: gcc-mingw-w64-x86-64) for the linker and objdump.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import zipfile

TARGET = "x86_64-pc-windows-gnu"
EXE = "pbrain-tianyuan64.exe"
MAX_BYTES = 8_000_000
OBJDUMP = "x86_64-w64-mingw32-objdump"
LINKER = "x86_64-w64-mingw32-gcc"
# The builds: (name, target-cpu, zip name).
BUILDS = [
    ("v3", "x86-64-v3", "pbrain-tianyuan64.zip"),
    ("baseline", "x86-64", "pbrain-tianyuan64-baseline.zip"),
]
# DLLs every Windows 10/11 has in System32 (lower case); api-ms-win-* API sets are the
# system's too.
SYSTEM_DLLS = {
    "kernel32.dll",
    "ntdll.dll",
    "advapi32.dll",
    "bcrypt.dll",
    "bcryptprimitives.dll",
    "userenv.dll",
    "ws2_32.dll",
    "msvcrt.dll",
    "shell32.dll",
    "ole32.dll",
    "user32.dll",
}

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(msg):
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(1)


def exe_path(name):
    """Where cargo leaves the executable of build `name`."""
    return os.path.join(ROOT, "target", "windows", name, TARGET, "release", "pbrain-tianyuan.exe")


def ensure_toolchain():
    """Adds the rustup target when it is missing; fails when MinGW is missing."""
    if shutil.which(LINKER) is None or shutil.which(OBJDUMP) is None:
        fail(f"{LINKER} and {OBJDUMP} not found (Debian: apt-get install gcc-mingw-w64-x86-64)")
    if shutil.which("rustup") is None:
        return  # a toolchain without rustup: cargo will say if the target is missing
    installed = subprocess.run(
        ["rustup", "target", "list", "--installed"], capture_output=True, text=True
    ).stdout.split()
    if TARGET not in installed:
        print(f"adding the Rust target {TARGET} (rustup target add)", flush=True)
        subprocess.run(["rustup", "target", "add", TARGET], check=True)


def build_all(builds):
    """Builds the engine for each `(name, cpu)` into target/windows/<name>, all at once: the
    long part of each build (fat LTO, one codegen unit) runs on one core, so two builds
    together take little more than one on a two-core machine. Cargo's output goes to
    target/windows/<name>.log and is shown when a build fails."""
    running = []
    for name, cpu in builds:
        env = dict(os.environ)
        env["RUSTFLAGS"] = f"-C target-cpu={cpu} -C target-feature=+crt-static"
        cmd = [
            "cargo", "build", "--release", "--no-default-features",
            "--target", TARGET,
            "--target-dir", os.path.join(ROOT, "target", "windows", name),
            "--bin", "pbrain-tianyuan",
        ]
        print(f"building the {name} engine ({cpu}): {' '.join(cmd)}", flush=True)
        log_path = os.path.join(ROOT, "target", "windows", f"{name}.log")
        os.makedirs(os.path.dirname(log_path), exist_ok=True)
        log = open(log_path, "w", encoding="utf-8")
        proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        running.append((name, proc, log, log_path))
    failed = []
    for name, proc, log, log_path in running:
        proc.wait()
        log.close()
        if proc.returncode != 0:
            with open(log_path, encoding="utf-8", errors="replace") as f:
                sys.stderr.write(f.read())
            failed.append(name)
    if failed:
        fail(f"the {', '.join(failed)} build failed (cargo's output above)")


def imports(exe):
    """The DLLs an executable imports (objdump -p), lower case, each once, sorted."""
    out = subprocess.run([OBJDUMP, "-p", exe], capture_output=True, text=True, check=True).stdout
    return sorted({d.lower() for d in re.findall(r"DLL Name:\s*(\S+)", out)})


def non_system(dlls):
    """The DLLs of `dlls` that are not Windows' own."""
    return [
        d for d in dlls
        if d.lower() not in SYSTEM_DLLS and not d.lower().startswith("api-ms-win-")
    ]


def version():
    with open(os.path.join(ROOT, "Cargo.toml"), encoding="utf-8") as f:
        m = re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M)
    return m.group(1) if m else "unknown"


def commit():
    r = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    )
    return r.stdout.strip() if r.returncode == 0 else "unknown"


def readme(cpu, dlls):
    """README.txt of a package (Windows line endings)."""
    lines = [
        f"Tianyuan {version()} (commit {commit()}): a gomoku and renju engine",
        "",
        f"{EXE}: Windows x64 console engine speaking the Piskvork/Gomocup protocol",
        f"(pbrain-), built for {cpu}"
        + (" (AVX2, as Gomocup's machines have)." if cpu == "x86-64-v3" else " (any 64-bit PC)."),
        "Rules: freestyle, exact five, renju, caro (INFO rule 0, 1, 4, 8, 9); boards 5x5 to",
        "22x22. It keeps within timeout_turn, timeout_match, time_left and max_memory, reads",
        "thread_num, does not think on the opponent's time, and writes no files (it does not",
        "use INFO folder).",
        "Under Piskvork: copy the .exe into Piskvork's folder and choose it as a player.",
        "",
        "It imports only Windows' own DLLs: " + ", ".join(dlls) + ".",
        "Licence: MIT (LICENSE.txt).",
    ]
    return "\r\n".join(lines) + "\r\n"


def write_zip(path, exe, cpu, dlls, max_bytes):
    """Writes the package; refuses (removes it, exits 1) when it is over `max_bytes`."""
    with open(os.path.join(ROOT, "LICENSE"), encoding="utf-8") as f:
        licence = f.read().replace("\r\n", "\n").replace("\n", "\r\n")
    stamp = (2026, 1, 1, 0, 0, 0)  # fixed, so that the same build gives the same zip
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with open(exe, "rb") as f:
            info = zipfile.ZipInfo(EXE, stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o755 << 16
            z.writestr(info, f.read())
        for name, text in (("LICENSE.txt", licence), ("README.txt", readme(cpu, dlls))):
            info = zipfile.ZipInfo(name, stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, text.encode("utf-8"))
    size = os.path.getsize(path)
    if size > max_bytes:
        os.remove(path)
        fail(f"{os.path.basename(path)} would be {size} bytes, over the {max_bytes} allowed: not written")
    return size


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "gomocup"))
    ap.add_argument("--no-build", action="store_true", help="package the executables already built")
    ap.add_argument("--max-bytes", type=int, default=MAX_BYTES)
    args = ap.parse_args()
    ensure_toolchain()
    os.makedirs(args.out, exist_ok=True)
    if not args.no_build:
        build_all([(name, cpu) for name, cpu, _ in BUILDS])
    report = []
    for name, cpu, zip_name in BUILDS:
        exe = exe_path(name)
        if not os.path.isfile(exe):
            fail(f"{exe} is missing (run without --no-build)")
        dlls = imports(exe)
        bad = non_system(dlls)
        if bad:
            fail(f"{exe} imports DLLs that are not Windows' own: {', '.join(bad)}")
        report.append(f"{name}: " + " ".join(dlls))
        size = write_zip(os.path.join(args.out, zip_name), exe, cpu, dlls, args.max_bytes)
        print(f"wrote {os.path.join(args.out, zip_name)}: {size} bytes "
              f"({EXE} {os.path.getsize(exe)} bytes, {cpu}); imports {', '.join(dlls)}")
    with open(os.path.join(args.out, "imports.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(report) + "\n")


if __name__ == "__main__":
    main()

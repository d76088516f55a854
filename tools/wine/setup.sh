#!/usr/bin/env bash
# Makes the Wine prefix in which the tests run the Windows engine (issue 50):
#   tools/wine/setup.sh [PREFIX]        (default: target/wine, or $WINEPREFIX)
# It initialises the prefix once (wineboot, quietly; Wine's first start is the slow part)
# and builds the bcryptprimitives.dll stand-in (tools/wine/bcryptprimitives.c: Rust's
# standard library needs ProcessPrng, which Wine 8 lacks) into the prefix's system32, never
# next to the engine or into the package. Needs Wine (Debian: wine64) and the MinGW-w64
# compiler (gcc-mingw-w64-x86-64). Prints the prefix's path last.
set -euo pipefail
cd "$(dirname "$0")/../.."
prefix="${1:-${WINEPREFIX:-target/wine}}"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
wine="$(tools/wine/find-wine)"
cc=x86_64-w64-mingw32-gcc
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "error: $cc not found (Debian: apt-get install gcc-mingw-w64-x86-64)" >&2
  exit 1
fi
export WINEPREFIX="$prefix" WINEDEBUG=-all
# No Mono or Gecko installer dialogues: the engine is a console program.
export WINEDLLOVERRIDES="mscoree,mshtml="
if [ ! -f "$prefix/system.reg" ]; then
  "$wine" wineboot --init >/dev/null 2>&1 || {
    echo "error: wineboot --init failed in $prefix" >&2
    exit 1
  }
  # Wait until the prefix is written (wineserver -w returns when its last process ends).
  for server in "${wine%/*}/wineserver" "${wine%/*}/wineserver-stable" /usr/lib/wine/wineserver; do
    if [ -x "$server" ]; then
      "$server" -w || true
      break
    fi
  done
fi
sys32="$prefix/drive_c/windows/system32"
if [ ! -d "$sys32" ]; then
  echo "error: $prefix has no drive_c/windows/system32 after wineboot" >&2
  exit 1
fi
"$cc" -shared -O2 -o "$sys32/bcryptprimitives.dll" tools/wine/bcryptprimitives.c -ladvapi32
echo "$prefix"

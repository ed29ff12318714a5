#!/usr/bin/env bash
# make test-arm64: run the whole test suite on emulated arm64 (aarch64).
#
# Builds (or reuses) an arm64 Debian 12 root with mmdebstrap, runs it through Debian's
# qemu-user-static via binfmt_misc, installs the lock's aarch64 wheels into a venv made
# with that root's own Python (Debian 12's 3.11.2), and runs `pytest` there, as make test
# does: the unit, property and tool tests, the doctests, and every chapter under strict
# nbval (every stored output, figures byte for byte). Left out: the browser tests
# (tests/browser; the root has no Chromium, and they test JupyterLab's front end, not
# arm64) and the lint (ruff's verdict does not depend on the CPU). The tests run in one
# process: emulation is slow, and one core is all it takes from a shared machine.
#
# Everything lives outside the clone, under $DSI_CACHE (default ~/.cache/did-search-improve):
#   arm64/root-bookworm/        the Debian root (kept until you delete it)
#   arm64/wheels-<key>/         the lock's aarch64 wheels, from tools/wheelhouse.py
#                               (<key>: hash of requirements.lock + pyproject.toml)
#   inside the root: /opt/env-<key>   the environment, rebuilt only when the lock changes
# Needs root (chroot, mount) and Debian's qemu-user-static, binfmt-support and mmdebstrap,
# which it installs with apt-get when they are missing.
#
# ARM64_CPUS="max cortex-a72" runs once per emulated CPU model (default: max, a generic
# ARMv8 CPU with SVE). Exit status: 0 all passed, 1 a test failed, 2 could not run.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
CACHE="${DSI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/did-search-improve}/arm64"
SUITE=bookworm
# make: the tests of the Makefile's targets run it (dry runs, and make workspace)
ROOT_PACKAGES=python3,python3-venv,make
CPUS="${ARM64_CPUS:-max}"
KEY=$(cat requirements.lock pyproject.toml | sha256sum | cut -c1-16)
CHROOT="$CACHE/root-$SUITE"
WHEELS="$CACHE/wheels-$KEY"
ENV="/opt/env-$KEY"
say() { echo "test-arm64: $*"; }
cannot() { say "CANNOT RUN: $*"; exit 2; }
t0=$(date +%s)

[ "$(id -u)" = 0 ] || cannot "needs root (chroot and mount). Run it as root, e.g. sudo make test-arm64."
[ "$(uname -m)" = x86_64 ] || [ "$(uname -m)" = aarch64 ] || cannot "written for x86_64 hosts (this is $(uname -m))."

# 1. Debian's tools.
missing=()
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
command -v update-binfmts >/dev/null || missing+=(binfmt-support)
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || cannot "missing ${missing[*]} and no apt-get to install them."
  say "installing Debian's ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# 2. binfmt_misc: the kernel must hand aarch64 programs to qemu, including those the
#    notebooks' kernels start. The F flag (fix binary) makes it work inside the chroot.
if [ "$(uname -m)" = x86_64 ]; then
  if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null \
      || cannot "binfmt_misc is not mounted and cannot be (mount -t binfmt_misc failed: no permission in this container?)."
  fi
  if ! grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null; then
    update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
  fi
  grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null \
    || cannot "qemu-aarch64 is not registered with binfmt_misc (update-binfmts --enable qemu-aarch64 failed)."
fi

# 3. The arm64 Debian root (python3 and python3-venv from Debian 12: Python 3.11.2).
if [ "$(cat "$CHROOT/.complete" 2>/dev/null)" != "$ROOT_PACKAGES" ]; then
  say "building the arm64 Debian $SUITE root in $CHROOT (once; a few minutes)"
  rm -rf --one-file-system "$CHROOT"
  mkdir -p "$CACHE"
  mmdebstrap --quiet --arch=arm64 --variant=minbase --include="$ROOT_PACKAGES" \
    "$SUITE" "$CHROOT" >/dev/null
  echo "$ROOT_PACKAGES" > "$CHROOT/.complete"
else
  say "reusing the arm64 root in $CHROOT"
fi

# 4. The lock's aarch64 wheels for Python 3.11: the linux-aarch64 part of make wheelhouse
#    (tools/wheelhouse.py, run by the host's .venv), downloaded on the host (nothing is
#    downloaded inside the root). The environment is built from them with pip --no-index, so
#    each new lock also proves that this part of the wheelhouse installs with no network.
if [ ! -e "$WHEELS/.complete" ]; then
  [ -x .venv/bin/python ] || cannot "tools/wheelhouse.py needs this clone's environment: run make env first."
  say "downloading the lock's aarch64 wheels into $WHEELS (tools/wheelhouse.py)"
  rm -rf "$WHEELS" "$WHEELS.tmp"
  .venv/bin/python tools/wheelhouse.py --dest "$WHEELS.tmp" --platform linux-aarch64 --python 3.11 \
    || cannot "downloading the aarch64 wheels failed (above)."
  touch "$WHEELS.tmp/.complete" && mv "$WHEELS.tmp" "$WHEELS"
  find "$CACHE" -maxdepth 1 -name 'wheels-*' ! -name "wheels-$KEY" -exec rm -rf {} +
fi

# 5. A copy of this clone's files (tracked and untracked, not ignored) at /src in the root.
rm -rf --one-file-system "$CHROOT/src" && mkdir -p "$CHROOT/src" "$CHROOT/wheels"
# trec_eval's own test files (tests/runs/test_scoring.py), kept outside the project in
# ../shared/trec_eval-test, are mounted read-only at the same place relative to /src
SHARED="$REPO/../shared/trec_eval-test"
[ -d "$SHARED" ] && SHARED=$(cd "$SHARED" && pwd) && mkdir -p "$CHROOT/shared/trec_eval-test" || SHARED=
git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -C "$CHROOT/src" -xf -

in_root() {  # run a shell command in the root, with /proc, /dev, the wheels (and trec_eval's tests) mounted privately
  local cpu=$1; shift
  unshare --mount --propagation private sh -c '
    set -e; R=$1; W=$2; T=$3; shift 3
    mount -t proc proc "$R/proc"; mount --bind /dev "$R/dev"; mount --bind "$W" "$R/wheels"
    [ -z "$T" ] || mount --bind -o ro "$T" "$R/shared/trec_eval-test"
    exec chroot "$R" /usr/bin/env -i HOME=/root LANG=C.UTF-8 PATH=/usr/bin:/bin QEMU_CPU="$0" \
      JUPYTER_PREFER_ENV_PATH=1 PYTHONDONTWRITEBYTECODE=1 /bin/sh -c "$1"' "$cpu" "$CHROOT" "$WHEELS" "$SHARED" "$@"
}

# 6. The environment, from the lock only, made with the root's own Python.
if [ ! -e "$CHROOT$ENV/.installed" ]; then
  say "building the environment $ENV inside the root from the lock's aarch64 wheels"
  rm -rf "$CHROOT"/opt/env-*
  in_root max "python3 -m venv $ENV && $ENV/bin/python -m pip install --quiet --disable-pip-version-check \
    --no-index --find-links /wheels -r /src/requirements.lock && touch $ENV/.installed"
else
  say "reusing the environment $ENV"
fi
t1=$(date +%s)
say "root and environment ready in $((t1 - t0)) s"

# 7. The whole suite (browser tests aside, see the top), once per emulated CPU model.
status=0
for cpu in $CPUS; do
  say "CPU model $cpu: $(in_root "$cpu" "$ENV/bin/python -c 'import platform, numpy; from numpy._core._multiarray_umath import __cpu_features__ as f; print(platform.machine(), platform.python_version(), \"numpy\", numpy.__version__, \"SIMD:\", \" \".join(k for k, v in f.items() if v))'")"
  s=$(date +%s)
  if in_root "$cpu" "cd /src && PATH=$ENV/bin:/usr/bin:/bin PYTHONPATH=/src $ENV/bin/python -m pytest -q -p no:cacheprovider --ignore=tests/browser"; then
    say "CPU model $cpu: passed in $(( $(date +%s) - s )) s"
  else
    say "CPU model $cpu: FAILED (after $(( $(date +%s) - s )) s)"; status=1
  fi
done
say "total $(( $(date +%s) - t0 )) s; $( [ $status = 0 ] && echo 'every test passed on arm64 (browser tests left out)' || echo 'FAILURES above')"
exit $status

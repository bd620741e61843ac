#!/bin/sh
# Installs pml on Linux or macOS, no root needed:
#   curl -fsSL https://github.com/casys-ai/pml/releases/latest/download/install.sh | sh
#   sh install.sh [--version 0.2.0] [--prefix DIR] [--base-url URL] [--target NAME]
# Picks the build for this OS, CPU, C library (glibc or musl) and AVX2 support, checks the archive
# against the release's SHA256SUMS before anything is installed, and installs DIR/bin/pml
# (default ~/.pml/bin/pml). A mirror serves the same layout as the release page:
#   <base-url>/download/v<version>/<file> and <base-url>/latest/download/<file>.
set -eu

BASE_URL="${PML_RELEASES_URL:-https://github.com/casys-ai/pml/releases}"
PREFIX="${PML_INSTALL_PREFIX:-$HOME/.pml}"
VERSION=""
TARGET=""

say() { printf '%s\n' "$*" >&2; }
die() { printf 'pml install: %s\n' "$*" >&2; exit 1; }

usage() {
  cat >&2 <<EOF
usage: install.sh [--version X] [--prefix DIR] [--base-url URL] [--target NAME]
  --version X      install this version (default: the latest release)
  --prefix DIR     install DIR/bin/pml (default: ~/.pml)
  --base-url URL   where releases are published (default: $BASE_URL)
  --target NAME    skip detection, e.g. linux-x64-musl-baseline
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || die "--version needs a value, e.g. --version 0.2.0"; VERSION="${2#v}"; shift 2 ;;
    --version=*) VERSION="${1#--version=}"; VERSION="${VERSION#v}"; shift ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; PREFIX="$2"; shift 2 ;;
    --prefix=*) PREFIX="${1#--prefix=}"; shift ;;
    --base-url) [ $# -ge 2 ] || die "--base-url needs a URL"; BASE_URL="$2"; shift 2 ;;
    --base-url=*) BASE_URL="${1#--base-url=}"; shift ;;
    --target) [ $# -ge 2 ] || die "--target needs a name, e.g. linux-x64"; TARGET="$2"; shift 2 ;;
    --target=*) TARGET="${1#--target=}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage; die "unknown option \"$1\"" ;;
  esac
done
BASE_URL="${BASE_URL%/}"

detect_target() {
  os=$(uname -s)
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW*|MSYS*|CYGWIN*|Windows_NT) die "on Windows, use install.ps1 (PowerShell) or scoop" ;;
    *) die "no pml build for $os; builds exist for Linux, macOS and Windows" ;;
  esac
  arch=$(uname -m)
  case "$arch" in
    x86_64|amd64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) die "no pml build for the $arch CPU; builds exist for x86-64 and ARM64" ;;
  esac
  # An x86-64 shell under Rosetta on Apple silicon: the native build is faster.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    arch=arm64
  fi
  variant=""
  if [ "$os" = linux ]; then
    if ls /lib/ld-musl-*.so.1 >/dev/null 2>&1 || { ldd --version 2>&1 | grep -qi musl; }; then
      variant="-musl"
    fi
  fi
  # x86-64 builds need AVX2; the baseline ones run on any x86-64 CPU.
  if [ "$arch" = x64 ]; then
    avx2=no
    if [ "$os" = linux ]; then
      grep -qw avx2 /proc/cpuinfo 2>/dev/null && avx2=yes
    else
      sysctl -n machdep.cpu.leaf7_features 2>/dev/null | grep -qi avx2 && avx2=yes
    fi
    [ "$avx2" = yes ] || variant="$variant-baseline"
  fi
  echo "$os-$arch$variant"
}

download() { # url file; fails when the server has no such file
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    die "needs curl or wget to download; install one of them and run this again"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1
  else
    die "needs sha256sum, shasum or openssl to check the download; install one and run this again"
  fi
}

[ -n "$TARGET" ] || TARGET=$(detect_target)
command -v tar >/dev/null 2>&1 || die "needs tar to unpack the archive"

if [ -n "$VERSION" ]; then
  dir_url="$BASE_URL/download/v$VERSION"
else
  dir_url="$BASE_URL/latest/download"
fi

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t pml-install)
trap 'rm -rf "$tmp"' EXIT INT TERM

download "$dir_url/SHA256SUMS" "$tmp/SHA256SUMS" ||
  die "could not fetch $dir_url/SHA256SUMS: is there a release${VERSION:+ v$VERSION} at --base-url $BASE_URL?"
if [ -n "$VERSION" ]; then
  file="pml-$VERSION-$TARGET.tar.gz"
  expected=$(awk -v f="$file" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")
else
  # The one archive named pml-<version>-<target>.tar.gz (no other target name ends like this one).
  line=$(awk -v t="-$TARGET.tar.gz" '{ n = $2; sub(/^\*/, "", n) } n ~ /^pml-/ && length(n) > length(t) && substr(n, length(n) - length(t) + 1) == t { print $1 " " n; exit }' "$tmp/SHA256SUMS")
  expected="${line%% *}"
  file="${line#* }"
fi
if [ -z "$expected" ]; then
  available=$(awk '$2 ~ /\.tar\.gz$/ { n = $2; sub(/^\*?pml-[^-]*-/, "", n); sub(/\.tar\.gz$/, "", n); printf "%s%s", sep, n; sep = ", " }' "$tmp/SHA256SUMS")
  die "no pml build for $TARGET in $dir_url/SHA256SUMS (it lists: ${available:-nothing}); pick one with --target"
fi
VERSION=$(printf '%s' "$file" | sed "s/^pml-//; s/-$TARGET\\.tar\\.gz\$//")

say "downloading $dir_url/$file"
download "$dir_url/$file" "$tmp/$file" || die "could not download $dir_url/$file"
actual=$(sha256_of "$tmp/$file")
if [ "$actual" != "$expected" ]; then
  die "refusing to install $file: its sha256 is $actual but SHA256SUMS says $expected. The download was damaged or tampered with; nothing was installed."
fi

mkdir -p "$tmp/x"
tar -xzf "$tmp/$file" -C "$tmp/x" || die "could not unpack $file"
[ -f "$tmp/x/pml" ] || die "$file holds no pml binary"
chmod 755 "$tmp/x/pml"
# A wrong build (CPU, C library) fails here, before anything is replaced.
if ! out=$("$tmp/x/pml" --version 2>&1); then
  die "the $TARGET build does not run on this machine ($(printf '%s' "$out" | head -n 1)); nothing was installed. Pick another build with --target (an x64 CPU without AVX2 needs a -baseline one, Alpine a -musl one)"
fi

bindir="$PREFIX/bin"
mkdir -p "$bindir" || die "could not create $bindir; choose another place with --prefix"
# Copy next to the destination, then rename: a running pml is never half-overwritten.
cp "$tmp/x/pml" "$bindir/.pml.$$" || die "could not write to $bindir; choose another place with --prefix"
mv -f "$bindir/.pml.$$" "$bindir/pml"

say "installed $("$bindir/pml" --version) to $bindir/pml"
case ":$PATH:" in
  *":$bindir:"*) ;;
  *)
    case "${SHELL:-}" in
      */zsh) rc="$HOME/.zshrc" ;;
      */bash) rc="$HOME/.bashrc" ;;
      */fish) rc="" ;;
      *) rc="$HOME/.profile" ;;
    esac
    say ""
    say "$bindir is not on your PATH. Add it with:"
    if [ -z "$rc" ]; then
      say "  fish_add_path $bindir"
    else
      say "  echo 'export PATH=\"$bindir:\$PATH\"' >> $rc && . $rc"
    fi
    ;;
esac
say "Then, in a project: pml init"

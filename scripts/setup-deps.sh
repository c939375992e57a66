#!/usr/bin/env bash
# Installs every build and run dependency of Stiction from Debian 12 packages.
# Idempotent: packages already present are skipped; apt is only called when
# something is missing. Uses sudo when not run as root.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config ccache git
  libeigen3-dev libfcl-dev libccd-dev libassimp-dev libqhull-dev libsuitesparse-dev
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
  libglfw3-dev libimgui-dev python3-glad libstb-dev libgl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth mesa-utils libgl1-mesa-dri ffmpeg libxtst-dev
  libmujoco-dev libbullet-dev
  libhdf5-dev python3-h5py python3-numpy python3-matplotlib libspnav-dev
  pybind11-dev python3-dev python3-pytest python3-distributed python3-pandas
  liburdfdom-dev liburdfdom-headers-dev libconsole-bridge-dev libtinyxml-dev
  clang libclang-rt-14-dev lld
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "setup-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
  fi
fi

echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup-deps: done"

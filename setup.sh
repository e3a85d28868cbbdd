#!/usr/bin/env bash
# Sets narrator up on a fresh Debian machine: system packages, a virtual environment in .venv,
# and the package itself (a normal, non-editable install, so what is tested is what users get).
#   ./setup.sh          what a table needs (espeak-ng for the voice, PortAudio for the sound card)
#   ./setup.sh --test   also the test extras, what the audio tests need (a PulseAudio null sink) and
#                       what the phones' browser tests need (Debian's chromium, axe-core from npm)
set -euo pipefail
cd "$(dirname "$0")"

packages=(espeak-ng libportaudio2)
extra=""
if [[ "${1:-}" == "--test" ]]; then
  packages+=(pulseaudio pulseaudio-utils libasound2-plugins chromium chromium-driver)
  command -v npm >/dev/null || packages+=(nodejs npm)
  extra="[test]"
fi
python3 -c "import ensurepip" 2>/dev/null || packages+=(python3-venv)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  echo "setup: installation des paquets système : ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[[ -x .venv/bin/python ]] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check ".$extra"
if [[ -n "$extra" ]]; then
  # axe-core, pinned by tests/axe/package-lock.json, checks the phones' pages in the browser tests
  npm ci --prefix tests/axe --no-audit --no-fund --silent
fi
echo "setup: prêt (.venv/bin/narrator)."

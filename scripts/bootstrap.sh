#!/bin/sh
# Installs pnpm, Node 24 (the npm registry's `node` package) and the workspace's dependencies,
# once and again whenever the lockfile changes, so `npm start` and `npm test` need no step before them.
set -e
cd "$(dirname "$0")/.."
# Debian peers the end-to-end tests drive: python-gitlab (a second GitLab client), Chromium (which
# renders the API documentation page), Prometheus Alertmanager (which delivers alerts to the alerts
# service), the Distribution registry and skopeo (the container registry and a client of it). Installed
# when missing and running as root; otherwise the test that needs one fails naming its install command.
debian_packages=
/usr/bin/python3 -c 'import gitlab' 2>/dev/null || debian_packages="$debian_packages python3-gitlab"
[ -x /usr/bin/chromium ] || debian_packages="$debian_packages chromium"
[ -x /usr/bin/prometheus-alertmanager ] || debian_packages="$debian_packages prometheus-alertmanager"
[ -x /usr/bin/docker-registry ] || debian_packages="$debian_packages docker-registry"
[ -x /usr/bin/skopeo ] || debian_packages="$debian_packages skopeo"
if [ -n "$debian_packages" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  # shellcheck disable=SC2086 # one word per package
  apt-get install -y --no-install-recommends $debian_packages >&2 ||
    { apt-get update >&2 && apt-get install -y --no-install-recommends $debian_packages >&2; }
fi
stamp=node_modules/.install-stamp
want=$(cat pnpm-lock.yaml package.json 2>/dev/null | cksum)
if [ -x node_modules/.bin/node ] && [ -x node_modules/.bin/pnpm ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
pnpm_version=$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' package.json)
if [ -f pnpm-lock.yaml ]; then frozen=--frozen-lockfile; else frozen=; fi
npm exec --yes --package="pnpm@$pnpm_version" -- pnpm install $frozen --reporter=append-only >&2
printf '%s' "$want" > "$stamp"

#!/usr/bin/env bash
# Installs the servers and tools the tests use, on a bare machine of this kind, and proves each one runs:
# a tool is accepted only when its `--version` exits 0 and names the expected version. A step that cannot
# produce a working binary ends the script with one line naming the step. Idempotent: a tool that already
# passes its check is kept as it is.
#   .ci/install-tools.sh            # all of them
#   .ci/install-tools.sh ferretdb   # one of them
set -euo pipefail
cd "$(dirname "$0")/.."
GOBIN=$(go env GOPATH)/bin
export PATH="$GOBIN:$PATH" GOFLAGS=-buildvcs=false

NATS_VERSION=v2.11.9
FERRETDB_VERSION=v1.24.2
HELM_VERSION=v3.16.4
KUBERNETES_VALIDATE_VERSION=1.37.0
OPENAPI_SPEC_VALIDATOR_VERSION=0.9.0
SCHEMATHESIS_VERSION=4.32.5

fail() { echo "install step '$1' failed: $2" >&2; exit 1; }

# version_ok BIN PATTERN VERSION-ARGS...: the binary runs, exits 0, and its output names PATTERN.
# (Output is captured first, never piped into an early-closing reader: SIGPIPE under pipefail.)
version_ok() {
  local bin=$1 pattern=$2 out
  shift 2
  [ -x "$bin" ] || return 1
  out=$("$bin" "$@" 2>&1) || return 1
  [[ "$out" == *"$pattern"* ]]
}

apt_install() {
  [ -n "${APT_UPDATED:-}" ] || { apt-get update -qq >/dev/null; APT_UPDATED=1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

install_nats() {
  local bin=$GOBIN/nats-server
  version_ok "$bin" "${NATS_VERSION}" --version && return 0
  # Debian's nats-server is 2.9; the JetStream features we use are tested on 2.11.
  go install "github.com/nats-io/nats-server/v2@${NATS_VERSION}" || fail nats-server "go install exited non-zero"
  version_ok "$bin" "${NATS_VERSION}" --version || fail nats-server "$bin --version does not name ${NATS_VERSION}"
}

# FerretDB embeds build/version/version.txt, which its release process writes from git tags. A plain
# `go install …@v1.24.2` builds without it (the binary panics at start), so build from the downloaded
# module with that file written. Same upstream code at the same version.
install_ferretdb() {
  local bin=$GOBIN/ferretdb src work
  version_ok "$bin" "${FERRETDB_VERSION}" --version && return 0
  src=$(go mod download -json "github.com/FerretDB/FerretDB@${FERRETDB_VERSION}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p') \
    || fail ferretdb "go mod download exited non-zero"
  [ -d "$src" ] || fail ferretdb "go mod download gave no source folder"
  work=$(mktemp -d)
  cp -r "$src/." "$work/"
  chmod -R u+w "$work"
  echo "${FERRETDB_VERSION}" >"$work/build/version/version.txt"
  if ! (cd "$work" && GOWORK=off go build -mod=mod -trimpath -o "$bin.new" ./cmd/ferretdb); then
    rm -rf "$work"; fail ferretdb "go build exited non-zero"
  fi
  rm -rf "$work"
  version_ok "$bin.new" "${FERRETDB_VERSION}" --version || { rm -f "$bin.new"; fail ferretdb "the built binary does not run or name ${FERRETDB_VERSION}"; }
  mv -f "$bin.new" "$bin"
}

# A `go install`ed helm prints only its minor version (v3.16: the patch comes from release ldflags), so
# the module version recorded in the binary is checked too.
helm_ok() {
  local bin=$GOBIN/helm info
  version_ok "$bin" "${HELM_VERSION%.*}" version --short || return 1
  info=$(go version -m "$bin" 2>&1) || return 1
  [[ "$info" == *"helm.sh/helm/v3"*"${HELM_VERSION}"* ]]
}
install_helm() {
  helm_ok && return 0
  go install "helm.sh/helm/v3/cmd/helm@${HELM_VERSION}" || fail helm "go install exited non-zero"
  helm_ok || fail helm "$GOBIN/helm does not run or is not ${HELM_VERSION}"
}

install_chromium() {
  version_ok /usr/bin/chromium Chromium --version && return 0
  apt_install chromium || fail chromium "apt-get install chromium exited non-zero"
  version_ok /usr/bin/chromium Chromium --version || fail chromium "/usr/bin/chromium --version does not run"
}

# libfaketime: CI runs the suites again with the clock moved ahead.
install_faketime() {
  version_ok /usr/bin/faketime 2020-01-01 -f '@2020-01-01 00:00:00' date -u +%F && return 0
  apt_install faketime || fail faketime "apt-get install faketime exited non-zero"
  version_ok /usr/bin/faketime 2020-01-01 -f '@2020-01-01 00:00:00' date -u +%F || fail faketime "faketime does not move the clock"
}

# pip_tool NAME VERSION BIN VERSION-ARGS...: NAME==VERSION from PyPI in its own venv under ~/.cache/leadfinder/NAME
# (.ci/run hands the tests its path in LEADFINDER_TEST_<NAME>_BIN; they also look there themselves).
pip_tool() {
  local name=$1 version=$2 venv=$HOME/.cache/leadfinder/$1
  local bin=$venv/bin/$3
  shift 3
  version_ok "$bin" "$version" "$@" && return 0
  python3 -m venv "$venv" || fail "$name" "python3 -m venv exited non-zero"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$name==$version" || fail "$name" "pip install exited non-zero"
  version_ok "$bin" "$version" "$@" || fail "$name" "$bin $* does not name $version"
}
# The outside OpenAPI checkers of test/openapi: the document's validator and the API fuzzer.
install_openapi_spec_validator() { pip_tool openapi-spec-validator "$OPENAPI_SPEC_VALIDATOR_VERSION" openapi-spec-validator --version; }
install_schemathesis() { pip_tool schemathesis "$SCHEMATHESIS_VERSION" schemathesis --version; }
# kubernetes-validate ships the Kubernetes JSON schemas of 1.25-1.37 inside the package, so test/helm
# validates the chart's rendered objects offline: nothing is fetched at test time.
install_kubernetes_validate() { pip_tool kubernetes-validate "$KUBERNETES_VALIDATE_VERSION" kubernetes-validate --version; }

tools=${*:-nats ferretdb helm kubernetes_validate openapi_spec_validator schemathesis chromium faketime}
for tool in $tools; do "install_$tool"; done

#!/usr/bin/env bash
# Builds FerretDB v1 (MongoDB wire protocol over SQLite) into $1 (default ~/go/bin/ferretdb).
# `go install …/ferretdb@v1.24.2` fails behind the module proxy here: its deprecation check lists
# versions (403). So: download the exact module version, write the version file its build embeds
# (normally produced from git tags), and build the command from that copy.
set -euo pipefail
VERSION=v1.24.2
OUT=${1:-$(go env GOPATH)/bin/ferretdb}
if [ -x "$OUT" ] && "$OUT" --version 2>/dev/null | grep "$VERSION" >/dev/null; then exit 0; fi
export GOFLAGS=-buildvcs=false
if GOFLAGS=-buildvcs=false go install "github.com/FerretDB/FerretDB/cmd/ferretdb@$VERSION" 2>/dev/null && [ -x "$(go env GOPATH)/bin/ferretdb" ]; then
  [ "$(go env GOPATH)/bin/ferretdb" = "$OUT" ] || cp "$(go env GOPATH)/bin/ferretdb" "$OUT"
  exit 0
fi
SRC=$(go mod download -json "github.com/FerretDB/FerretDB@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
WORK=$(mktemp -d)
trap 'chmod -R u+w "$WORK"; rm -rf "$WORK"' EXIT
cp -r "$SRC/." "$WORK/"
chmod -R u+w "$WORK"
echo "$VERSION" > "$WORK/build/version/version.txt"
(cd "$WORK" && GOWORK=off go build -mod=mod -trimpath -o "$OUT" ./cmd/ferretdb)
"$OUT" --version >/dev/null

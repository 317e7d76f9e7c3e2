#!/bin/sh
# Fails when gen/ differs from what the .proto files generate: generated code is never edited by
# hand, and a changed contract is regenerated in the same commit.
set -eu
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
buf generate --output "$out"
if ! diff -ru gen "$out/gen"; then
  echo 'proto/gen is not what the .proto files generate: run `npm run proto:gen` and commit the result.' >&2
  exit 1
fi

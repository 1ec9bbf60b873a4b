#!/usr/bin/env bash
# make e2e: drives the real agent CLIs against a local scripted model server.
set -euo pipefail
echo "e2e: no end-to-end suites yet"

#!/bin/sh
# Regenerates Examples/SampleApp.app and Examples/launch.log (committed; used by the README's quick start).
set -e
cd "$(dirname "$0")/.."
swift run -q ExampleMaker Examples

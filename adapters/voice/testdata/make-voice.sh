#!/usr/bin/env bash
# Makes voice.ogg, the small OGG/Opus voice note the tests send: a
# synthetic voice (espeak-ng) saying a reminder request, resampled to
# 16 kHz mono (sox) and encoded as Opus in Ogg (opusenc), the format of
# a Telegram voice note.
# Needs Debian's espeak-ng, sox and opus-tools:
#   apt-get install -y espeak-ng sox opus-tools
set -euo pipefail
cd "$(dirname "$0")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
espeak-ng -v en-us -s 150 -w "$tmp/speech.wav" "Remind me to water the plants tomorrow at 9am"
sox "$tmp/speech.wav" -r 16000 -c 1 "$tmp/speech16.wav"
opusenc --quiet --bitrate 16 --comment TITLE=hearth-test "$tmp/speech16.wav" voice.ogg

#!/bin/sh
# The official redis image's start, in short: its redis-server is built with protected mode off, so that the other
# containers of the network can reach it; Debian's keeps it on and answers them only with a DENIED error. The
# command (deploy/compose.yaml's) is run as given, with protected mode off as the official image has it.
set -eu
exec "$@" --protected-mode no

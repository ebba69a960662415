#!/bin/sh
# The official postgres image's start, in short: a database cluster made at the first start in PGDATA (the
# volume), with POSTGRES_USER as its superuser (password POSTGRES_PASSWORD, asked of every network client) and the
# database POSTGRES_DB; then the server in the foreground, listening on every address.
set -eu
export PGDATA=/var/lib/postgresql/data
mkdir -p "$PGDATA" /run/postgresql
chown -R postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/pwfile
  chown postgres /tmp/pwfile
  su postgres -s /bin/sh -c "initdb -D '$PGDATA' --username='$POSTGRES_USER' --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256" >/dev/null
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  su postgres -s /bin/sh -c "pg_ctl -D '$PGDATA' -o \"-c listen_addresses=''\" -w start" >/dev/null
  su postgres -s /bin/sh -c "psql -v ON_ERROR_STOP=1 -U '$POSTGRES_USER' -d postgres -c 'CREATE DATABASE \"$POSTGRES_DB\"'" >/dev/null
  su postgres -s /bin/sh -c "pg_ctl -D '$PGDATA' -m fast -w stop" >/dev/null
fi
exec su postgres -s /bin/sh -c "exec postgres -D '$PGDATA' -c listen_addresses='*'"

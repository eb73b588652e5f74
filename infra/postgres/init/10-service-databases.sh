#!/usr/bin/env bash
# Creates one role and one database per Hearth service: role hearth_<service> owns database
# hearth_<service> and can connect to nothing else, so a service cannot read another's data.
#
# The official postgres image runs this once, on an empty data directory, from
# /docker-entrypoint-initdb.d (see docker-compose.yml). It is idempotent, so it can also be run
# by hand against a running server:
#   docker compose exec postgres bash /docker-entrypoint-initdb.d/10-service-databases.sh
#
#   HEARTH_SERVICES             services to create, space-separated (default: all five)
#   <SERVICE>_DB_PASSWORD       password of role hearth_<service>, e.g. FINANCE_DB_PASSWORD (required)
#   POSTGRES_USER, POSTGRES_DB  the superuser and its database (set by the postgres image)
#
# Each service applies its own migrations at start-up (it owns its database, so it may create
# the `public` schema objects); this script creates no tables.
set -euo pipefail

services="${HEARTH_SERVICES:-gateway finance chat notifications audit}"

for service in $services; do
  [[ "$service" =~ ^[a-z][a-z0-9_]*$ ]] || { echo "10-service-databases: invalid service name '$service'" >&2; exit 1; }
  password_var="${service^^}_DB_PASSWORD"
  password="${!password_var:-}"
  [[ -n "$password" ]] || { echo "10-service-databases: $password_var is not set" >&2; exit 1; }
  name="hearth_${service}"

  # psql variables (:"name" quotes an identifier, :'password' a literal) keep the values out of the SQL text.
  psql --no-psqlrc -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname "${POSTGRES_DB:-postgres}" \
    -v name="$name" -v password="$password" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN PASSWORD %L', :'name', :'password')
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'name') \gexec
SELECT format('ALTER ROLE %I LOGIN PASSWORD %L', :'name', :'password') \gexec
SELECT format('CREATE DATABASE %I OWNER %I', :'name', :'name')
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'name') \gexec
REVOKE ALL ON DATABASE :"name" FROM PUBLIC;
SQL
  echo "10-service-databases: role and database $name ready"
done

#!/usr/bin/env bash
# Writes .env next to docker-compose.yml with random secrets and database passwords (hex: URL-safe).
# Refuses to overwrite an existing .env: a new SECRETS_ENCRYPTION_KEY cannot open the TOTP seeds and
# SSO client secrets sealed with the old one, and new database passwords do not match a database
# volume that already exists.
set -euo pipefail
env_file="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.env"
if [[ -e $env_file ]]; then
  echo "new-env.sh: $env_file exists; not overwriting it (see the comment at the top of this script)" >&2
  exit 1
fi
random() { od -An -N32 -tx1 /dev/urandom | tr -d ' \n'; }
umask 077
{
  for name in INTERNAL_AUTH_SECRET JWT_SECRET SECRETS_ENCRYPTION_KEY METRICS_TOKEN POSTGRES_PASSWORD \
    GATEWAY_DB_PASSWORD FINANCE_DB_PASSWORD CHAT_DB_PASSWORD NOTIFICATIONS_DB_PASSWORD AUDIT_DB_PASSWORD; do
    echo "$name=$(random)"
  done
} >"$env_file"
echo "new-env.sh: wrote $env_file (mode 600); keep a backup of SECRETS_ENCRYPTION_KEY"

#!/bin/sh
# Creates the per-service MinIO users and attaches their policies (least privilege). Run by the
# compose service "minio-users" (image minio/mc) after the buckets exist. Not run on the development machines
# (no Docker there): see docs/security/privilege.md for what was and was not exercised.
#   uploader  -> policy stowage-uploader (put, multipart, HEAD under its prefixes; no delete)
#   verifier  -> policy stowage-verifier (GET and LIST only); the gatekeeper uses the same user for its HEADs at decision time
#   provider-adapter -> policy stowage-retention (GET/HEAD and DELETE under checkpoints/ only: retention's executor)
#   ledger, shard-builder -> no MinIO user at all
# Credentials come from the environment (compose/.env); nothing secret is written to a file.
set -eu
: "${MINIO_ROOT_USER:?}" "${MINIO_ROOT_PASSWORD:?}"
: "${UPLOADER_S3_ACCESS_KEY:?}" "${UPLOADER_S3_SECRET_KEY:?}" "${VERIFIER_S3_ACCESS_KEY:?}" "${VERIFIER_S3_SECRET_KEY:?}"
: "${RETENTION_S3_ACCESS_KEY:?}" "${RETENTION_S3_SECRET_KEY:?}"
mc alias set s http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD" >/dev/null
for policy in stowage-uploader stowage-verifier stowage-retention; do
  mc admin policy create s "$policy" "/policies/$policy.json"
done
mc admin user add s "$UPLOADER_S3_ACCESS_KEY" "$UPLOADER_S3_SECRET_KEY"
mc admin policy attach s stowage-uploader --user "$UPLOADER_S3_ACCESS_KEY" || true   # "already attached" on a re-run
mc admin user add s "$VERIFIER_S3_ACCESS_KEY" "$VERIFIER_S3_SECRET_KEY"
mc admin policy attach s stowage-verifier --user "$VERIFIER_S3_ACCESS_KEY" || true
mc admin user add s "$RETENTION_S3_ACCESS_KEY" "$RETENTION_S3_SECRET_KEY"
mc admin policy attach s stowage-retention --user "$RETENTION_S3_ACCESS_KEY" || true
echo "MinIO users: uploader=$UPLOADER_S3_ACCESS_KEY (policy stowage-uploader), verifier=$VERIFIER_S3_ACCESS_KEY (policy stowage-verifier), provider-adapter=$RETENTION_S3_ACCESS_KEY (policy stowage-retention)"

#!/bin/bash
# Run by the compose "init" service (image apache/kafka:4.1.2) as the broker's admin: creates the topics, one SCRAM
# user per principal of /kafka/acls.txt (password from KAFKA_PASSWORD_<PRINCIPAL>, upper case, '-' -> '_'), and
# every ACL of that table. KafkaScramAclTest reads the same table against a real SCRAM broker.
set -euo pipefail
: "${KAFKA_ADMIN_PASSWORD:?}"
BOOTSTRAP=kafka:9092
umask 077
ADMIN="${KAFKA_ADMIN_CONFIG:-/tmp/admin.properties}"
cat > "$ADMIN" <<PROPS
security.protocol=SASL_PLAINTEXT
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="${KAFKA_ADMIN_PASSWORD}";
PROPS
BIN="${KAFKA_BIN:-/opt/kafka/bin}"
TABLE="${KAFKA_ACL_TABLE:-/kafka/acls.txt}"

for t in shard.built dataset.sealed checkpoint.published object.uploaded object.upload.failed object.verified \
         volume.release.requested gate.passed gate.denied gate.inventory volume.released volume.release.failed volume.created \
         volume.destroyed pod.created pod.terminated provider.alert provider.action.failed archive.published \
         baseline.archived release.refused checkpoint.pinned retention.decided checkpoint.expired retention.refused \
         model.published model.shared run.started run.progress run.finished; do
  for topic in "$t" "$t.dlq"; do
    "$BIN/kafka-topics.sh" --bootstrap-server "$BOOTSTRAP" --command-config "$ADMIN" --create --if-not-exists \
      --topic "$topic" --partitions 4 --replication-factor 1 --config retention.ms=-1
  done
done
# the cluster lease of services' periodic jobs: one partition, never written (io.stowage.messaging.ClusterLease)
"$BIN/kafka-topics.sh" --bootstrap-server "$BOOTSTRAP" --command-config "$ADMIN" --create --if-not-exists \
  --topic stowage.lease --partitions 1 --replication-factor 1

principals=$(grep -v '^\s*#' "$TABLE" | awk 'NF == 5 {print $1}' | sort -u)
for p in $principals; do
  var="KAFKA_PASSWORD_$(echo "$p" | tr 'a-z-' 'A-Z_')"
  password="${!var:?set $var in compose/.env}"
  "$BIN/kafka-configs.sh" --bootstrap-server "$BOOTSTRAP" --command-config "$ADMIN" --alter \
    --add-config "SCRAM-SHA-512=[iterations=4096,password=${password}]" --entity-type users --entity-name "$p"
done

grep -v '^\s*#' "$TABLE" | awk 'NF == 5' | while read -r principal operation type name pattern; do
  case "$type" in
    TOPIC) resource=(--topic "$name") ;;
    GROUP) resource=(--group "$name") ;;
    CLUSTER) resource=(--cluster) ;;
    *) echo "acls.txt: unknown resource type $type" >&2; exit 1 ;;
  esac
  "$BIN/kafka-acls.sh" --bootstrap-server "$BOOTSTRAP" --command-config "$ADMIN" --add \
    --allow-principal "User:$principal" --operation "$operation" "${resource[@]}" \
    --resource-pattern-type "$(echo "$pattern" | tr 'A-Z' 'a-z')"
done
echo "Kafka: topics, SCRAM users ($(echo $principals | wc -w)) and ACLs applied from $TABLE"

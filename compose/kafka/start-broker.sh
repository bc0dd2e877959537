#!/bin/bash
# Entrypoint of the compose "kafka" service (image apache/kafka:4.1.2): one KRaft node whose client listener is
# SASL_PLAINTEXT with SCRAM-SHA-512 and whose authorizer denies whatever compose/kafka/acls.txt does not allow.
# The same settings are exercised on the development machine by stack/.../KafkaScramAclTest against Kafka 4.1.2;
# this script itself needs Docker and was not run there.
# Passwords come from the environment (compose/.env) and are written only into the container's own /tmp.
set -euo pipefail
: "${KAFKA_ADMIN_PASSWORD:?}" "${KAFKA_CONTROLLER_PASSWORD:?}"
CLUSTER_ID="${KAFKA_CLUSTER_ID:-stowage-compose-kraft-1}"
CONFIG=/tmp/server.properties
umask 077
cat > "$CONFIG" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=kafka:9093
listeners=SASL_PLAINTEXT://:9092,CONTROLLER://:9093
advertised.listeners=SASL_PLAINTEXT://kafka:9092
controller.listener.names=CONTROLLER
inter.broker.listener.name=SASL_PLAINTEXT
listener.security.protocol.map=SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
sasl.mechanism.controller.protocol=PLAIN
listener.name.sasl_plaintext.sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="${KAFKA_ADMIN_PASSWORD}";
listener.name.controller.sasl.enabled.mechanisms=PLAIN
listener.name.controller.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="controller" password="${KAFKA_CONTROLLER_PASSWORD}" user_controller="${KAFKA_CONTROLLER_PASSWORD}";
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:admin;User:controller
allow.everyone.if.no.acl.found=false
auto.create.topics.enable=false
log.dirs=/var/lib/kafka/data
num.partitions=4
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
# the admin's SCRAM credential must exist before the broker can authenticate anyone: bootstrap it at format time
/opt/kafka/bin/kafka-storage.sh format --cluster-id "$CLUSTER_ID" --config "$CONFIG" --standalone --ignore-formatted \
  --add-scram "SCRAM-SHA-512=[name=admin,iterations=4096,password=${KAFKA_ADMIN_PASSWORD}]"
exec /opt/kafka/bin/kafka-server-start.sh "$CONFIG"

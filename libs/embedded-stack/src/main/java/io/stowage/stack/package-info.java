/**
 * Real servers for Stowage's tests and local runs, without Docker: Kafka 4.1.2 (KRaft, child JVM), S3Proxy 4.1.0
 * (filesystem backend, child JVM) and PostgreSQL 17 (zonky binaries), all on free ports of 127.0.0.1.
 *
 * <p>Tests: {@code @ExtendWith(StowageStackExtension.class)} (plain JUnit 5, {@link io.stowage.stack.StackEndpoints}
 * parameters) or {@code @QuarkusTestResource(StowageStackResource.class)} (Quarkus configuration). Both share one
 * stack per JVM ({@link io.stowage.stack.EmbeddedStack#shared()}). Programs: {@link io.stowage.stack.EmbeddedStack#start}
 * or {@link io.stowage.stack.StackMain}.
 *
 * <p>With {@code -Dstowage.stack=containers} (or {@code STOWAGE_STACK}) the shared stack is a
 * {@link io.stowage.stack.ContainerStack} instead (Docker and Testcontainers needed; compiled, never run here).
 *
 * <p>System properties: {@code stowage.stack} ({@code embedded} or {@code containers}), {@code stowage.stack.file} (or {@code STOWAGE_STACK_FILE}: use a running stack's
 * {@code stack.json} instead of starting one), {@code stowage.stack.keep} (keep the shared stack's temporary
 * directory), {@code stowage.stack.cache-dir} (where the PostgreSQL cluster template is kept),
 * {@code stowage.stack.kafka.jvm-options}, {@code stowage.stack.s3proxy.jvm-options},
 * {@code stowage.stack.start-timeout-ms}, {@code stowage.s3proxy.jar}.
 */
package io.stowage.stack;

package io.stowage.cli.command;

import io.stowage.cli.CliRun;
import io.stowage.cli.platform.Session;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code stowage audit lifecycle} against the stack's S3Proxy, which has no lifecycle support: both buckets are read,
 * reported as running no rules, and the audit is clean (exit 0). The warnings are {@code LifecycleAuditTest}'s.
 */
@ExtendWith(StowageStackExtension.class)
class AuditLifecycleCommandTest {
    @TempDir
    Path home;

    @Test
    void bothBucketsOfS3ProxyReadAsNoLifecycleSupportAndTheAuditIsClean(StackEndpoints stack) throws Exception {
        new Session(stack, Map.of(), home.resolve("staging").toString(), List.of(), ProcessHandle.current().pid())
                .writeTo(home.resolve("session.json"));

        CliRun.Result text = CliRun.runWithHome(home, "audit", "lifecycle");
        assertThat(text.exit()).isZero();
        assertThat(text.out()).contains("primary (bucket " + stack.primaryBucket() + "): the store has no lifecycle support")
                .contains("replica (bucket " + stack.replicaBucket() + "): the store has no lifecycle support");

        CliRun.Result json = CliRun.runWithHome(home, "audit", "lifecycle", "--json", "--resume-window", "P10D");
        assertThat(json.exit()).isZero();
        assertThat(json.out()).contains("\"store\":\"primary\"").contains("\"supported\":false")
                .contains("\"findings\":[]");
    }
}

package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.events.Topics;
import io.stowage.ledger.domain.LedgerLag;
import io.stowage.ledger.domain.PartitionLag;
import io.stowage.ledger.messaging.ConsumerLag;
import io.stowage.stack.StowageStackResource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ledger's lag against the real broker when a topic it is asked about does not exist there (a topic added to the
 * contract before the broker was given it): the answer names the topic as missing and still reports every partition
 * of the topics that exist, instead of failing as a whole.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ConsumerLagTest {
    @Inject
    ConsumerLag lag;

    @Test
    void aTopicMissingOnTheBrokerIsNamedAndTheOthersAreStillReported() {
        String absent = "stowage.absent-" + UUID.randomUUID().toString().substring(0, 8);

        LedgerLag answer = lag.read(List.of(Topics.OBJECT_VERIFIED, absent, Topics.GATE_PASSED));

        assertThat(answer.missing()).containsExactly(absent);
        assertThat(answer.caughtUp()).isFalse();
        assertThat(answer.partitions()).extracting(PartitionLag::topic).contains(Topics.OBJECT_VERIFIED, Topics.GATE_PASSED)
                .doesNotContain(absent);
    }

    @Test
    void everyTopicOfTheContractIsThereOnTheStacksBroker() {
        assertThat(lag.read().missing()).isEmpty();
    }
}

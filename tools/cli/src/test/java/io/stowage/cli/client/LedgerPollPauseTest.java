package io.stowage.cli.client;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The pause between two looks at an asset's evidence grows with the objects still to come and ends short. */
class LedgerPollPauseTest {
    @Test
    void aStepOfAThousandFilesFarFromDoneIsLookedAtEveryTwoSeconds() {
        assertThat(LedgerClient.pollPause(1000, 0)).isEqualTo(2000);
        assertThat(LedgerClient.pollPause(1000, 400)).isEqualTo(1200);
    }

    @Test
    void nearTheEndAndForSmallStepsThePauseIsTheShortest() {
        assertThat(LedgerClient.pollPause(1000, 900)).isEqualTo(300);
        assertThat(LedgerClient.pollPause(1000, 1000)).isEqualTo(300);
        assertThat(LedgerClient.pollPause(2, 0)).isEqualTo(300);
    }

    @Test
    void moreResultsThanExpectedNeverMakeTheWaitShorterThanTheFloor() {
        assertThat(LedgerClient.pollPause(10, 25)).isEqualTo(300);
    }
}

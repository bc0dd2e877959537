package io.stowage.console.session;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ViewerTest {
    @Test
    void onlyAnOperatorTokenMayActAndTheTokenNeverAppearsInItsText() {
        Viewer reader = new Viewer("rita", "reader", "secret-reader-token");
        Viewer operator = new Viewer("otto", "operator", "secret-operator-token");

        assertThat(reader.operator()).isFalse();
        assertThat(operator.operator()).isTrue();
        assertThat(operator.authorization()).isEqualTo("Bearer secret-operator-token");
        assertThat(reader.toString()).isEqualTo("Viewer[rita, reader]").doesNotContain("secret");
    }
}

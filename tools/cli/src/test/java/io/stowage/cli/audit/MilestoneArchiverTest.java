package io.stowage.cli.audit;

import com.github.luben.zstd.Zstd;
import io.stowage.cli.CliException;
import io.stowage.events.Sha256;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MilestoneArchiverTest {
    static final String TEXT = "{\"archivedAsset\":\"run/e/r\",\"events\":1}\n{\"chainHash\":\"" + "a".repeat(64)
            + "\",\"previousHash\":\"" + "0".repeat(64) + "\",\"row\":{\"seq\":1}}\n";

    @Test
    void theSameTextGivesTheSameBytesWhichDecompressToIt() {
        byte[] first = MilestoneArchiver.compress(TEXT);
        byte[] second = MilestoneArchiver.compress(new String(TEXT.toCharArray()));

        assertThat(second).isEqualTo(first);
        assertThat(Sha256.of(second)).isEqualTo(Sha256.of(first)).hasSize(64);
        assertThat(new String(Zstd.decompress(first, (int) Zstd.getFrameContentSize(first)), StandardCharsets.UTF_8))
                .isEqualTo(TEXT);
        assertThat(MilestoneArchiver.compress(TEXT + " ")).isNotEqualTo(first);
    }

    @Test
    void aSignedUrlOrASessionCredentialIsRefusedWithoutNamingTheSecret() {
        String signed = TEXT.replace("run/e/r", "https://s3/b/k?X-Amz-Algorithm=AWS4&x-amz-signature=abc");
        assertThatThrownBy(() -> MilestoneArchiver.refuseSecrets("run/e/r", signed, List.of()))
                .isInstanceOf(CliException.class).hasMessageContaining("signed URL (x-amz-signature)");
        String leaked = TEXT.replace("run/e/r", "AKIAEXAMPLESECRET42");
        assertThatThrownBy(() -> MilestoneArchiver.refuseSecrets("run/e/r", leaked, List.of("AKIAEXAMPLESECRET42")))
                .isInstanceOf(CliException.class).hasMessageContaining("credential of this session")
                .hasMessageNotContaining("AKIAEXAMPLESECRET42");
        MilestoneArchiver.refuseSecrets("run/e/r", TEXT, List.of("AKIAEXAMPLESECRET42", " "));
    }
}

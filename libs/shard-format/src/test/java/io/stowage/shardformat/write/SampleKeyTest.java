package io.stowage.shardformat.write;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SampleKeyTest {

    private static List<Member> members(String... paths) {
        return Arrays.stream(paths).sorted()
                .map(p -> new Member(p, Path.of("/data", p), 1, FileTime.fromMillis(0))).toList();
    }

    @Test
    void keyIsTheFileNameUpToItsFirstDot() {
        assertThat(SampleKey.of("235342 Track 2.0 (Clean Version).mp3"))
                .isEqualTo(new SampleKey("235342 Track 2", "0 (Clean Version).mp3"));
        assertThat(SampleKey.of("22.05.png")).isEqualTo(new SampleKey("22", "05.png"));
        assertThat(SampleKey.of("a.b.jpeg")).isEqualTo(new SampleKey("a", "b.jpeg"));
        assertThat(SampleKey.of("a.b.txt")).isEqualTo(new SampleKey("a", "b.txt"));
    }

    @Test
    void dotsInDirectoryNamesAreLeftAlone() {
        assertThat(SampleKey.of("train.v1/0001.jpg")).isEqualTo(new SampleKey("train.v1/0001", "jpg"));
        assertThat(SampleKey.of("a.b/c.d/e")).isEqualTo(new SampleKey("a.b/c.d/e", ""));
        assertThat(SampleKey.of("x.y/.hidden")).isEqualTo(new SampleKey("x.y/", "hidden"));
    }

    @Test
    void sameKeyWithDifferentExtensionsIsOneSampleNotACollision() {
        assertThatCode(() -> SampleKey.requireUnique(members("a.b.jpeg", "a.b.txt", "22.05.png", "22.06.png",
                "train.v1/0001.jpg", "train.v2/0001.jpg", "235342 Track 2.0 (Clean Version).mp3")))
                .doesNotThrowAnyException();
    }

    @Test
    void extensionsDifferingOnlyInCaseCollideAndBothAreNamed() {
        assertThatThrownBy(() -> SampleKey.requireUnique(members("x.jpg", "x.JPG", "y.txt")))
                .isInstanceOf(DatasetInputException.class)
                .hasMessage("WebDataset sample key collision, compared case-insensitively:"
                        + " 'x.JPG' and 'x.jpg' (key 'x', extension 'jpg')");
    }

    @Test
    void everyCollidingPairIsNamedInOneError() {
        assertThatThrownBy(() -> SampleKey.requireUnique(members("Clip.WAV", "clip.wav", "d/A.txt", "d/a.TXT")))
                .hasMessage("WebDataset sample key collision, compared case-insensitively:"
                        + " 'Clip.WAV' and 'clip.wav' (key 'clip', extension 'wav');"
                        + " 'd/A.txt' and 'd/a.TXT' (key 'd/a', extension 'TXT')");
    }

    @Test
    void caseIsFoldedTheSameWayInATurkishLocale() {
        java.util.Locale before = java.util.Locale.getDefault();
        java.util.Locale.setDefault(java.util.Locale.forLanguageTag("tr-TR"));
        try {
            assertThatThrownBy(() -> SampleKey.requireUnique(members("FILE.txt", "file.txt")))
                    .hasMessageContaining("'FILE.txt' and 'file.txt'");
        } finally {
            java.util.Locale.setDefault(before);
        }
    }

    @Test
    void namesDifferingOnlyInUnicodeNormalisationDoNotCollide() {
        assertThatCode(() -> SampleKey.requireUnique(members("caf\u00e9.wav", "cafe\u0301.wav")))
                .doesNotThrowAnyException();
    }
}

package io.stowage.shardformat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class MemberNameTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/abs.txt | is absolute",
            "../x.txt | has a .. segment",
            "a/../../y.txt | has a .. segment",
            "..././z.txt | has a . segment",
            "./a | has a . segment",
            "a/. | has a . segment",
            "a/.. | has a .. segment",
            "a//b | has an empty segment",
            "a/ | has an empty segment",
            "a\\b | holds a backslash",
            "..\\x | holds a backslash",
    })
    void refusesNamesThatCouldLeaveTheirDirectoryOrNormaliseDifferently(String name, String reason) {
        assertThat(MemberName.problem(name)).contains(reason);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\0b", "\0", "a/b\0/../../etc"})
    void refusesANul(String name) {
        assertThat(MemberName.problem(name)).contains("holds a NUL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bad-\uFFFD.wav", "a/\uFFFD\uFFFD/b.flac"})
    void refusesTheReplacementCharacterAsANameThatWasNotUtf8Reads(String name) {
        assertThat(MemberName.problem(name)).get().asString().startsWith("holds U+FFFD");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " "})
    void anEmptyNameIsRefusedAndABlankOneIsAName(String name) {
        assertThat(MemberName.isLegal(name)).isEqualTo(!name.isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"...", ".../z.txt", ".hidden", "a/..b", "a..", "a/b/c.wav", "naïve café é.flac", "日本/x", "C:x"})
    void acceptsNamesWhoseSegmentsMeanOnlyThemselves(String name) {
        assertThat(MemberName.problem(name)).isEmpty();
    }
}

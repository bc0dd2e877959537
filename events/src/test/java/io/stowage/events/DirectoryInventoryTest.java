package io.stowage.events;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DirectoryInventoryTest {
    @TempDir
    Path dir;

    static String sha256(String text) throws Exception {
        return Sha256.of(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void listsEveryRegularFileSortedWithBytesAndSha256AndDigestsTheLines() throws Exception {
        Files.createDirectories(dir.resolve("b"));
        Files.writeString(dir.resolve("b/2.wav"), "two!");
        Files.writeString(dir.resolve("a.txt"), "one");
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve("a.txt"));

        DirectoryInventory inventory = DirectoryInventory.take(dir);

        assertThat(inventory.entries()).containsExactly(new InventoryEntry("a.txt", 3, sha256("one")),
                new InventoryEntry("b/2.wav", 4, sha256("two!")));
        assertThat(inventory.symlinks()).containsExactly("link");
        assertThat(inventory.digest()).isEqualTo(sha256("a.txt\t3\t" + sha256("one") + "\nb/2.wav\t4\t" + sha256("two!") + "\n"));
        assertThat(inventory.totalBytes()).isEqualTo(7);
    }

    @Test
    void namesEachFileAddedChangedOrRemoved() throws Exception {
        Files.writeString(dir.resolve("keep"), "k");
        Files.writeString(dir.resolve("change"), "abc");
        Files.writeString(dir.resolve("remove"), "r");
        List<InventoryEntry> approved = DirectoryInventory.take(dir).entries();
        Files.writeString(dir.resolve("change"), "abd");
        Files.delete(dir.resolve("remove"));
        Files.writeString(dir.resolve("added"), "new");

        List<String> differences = DirectoryInventory.take(dir).differencesFrom(approved);

        assertThat(differences).containsExactly("added added",
                "changed change (bytes 3->3, sha256 " + sha256("abc").substring(0, 12) + "->" + sha256("abd").substring(0, 12) + ")",
                "removed remove");
    }
}

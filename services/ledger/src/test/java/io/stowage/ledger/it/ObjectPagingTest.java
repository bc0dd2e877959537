package io.stowage.ledger.it;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.stowage.stack.EmbeddedStack;
import io.stowage.stack.StackEndpoints;
import io.stowage.stack.StowageStackResource;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.stowage.auth.TestTokens.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes {@code ledger_object} rows of a store of its own straight into the real PostgreSQL, then pages through
 * {@code GET /api/objects}: byte order of keys (upper case before lower case), every field of a row, the {@code next}
 * cursor, no row twice or lost, other stores left out, bad requests refused. The embedded cluster's collation is
 * C.UTF-8 (byte order already), so this test does not show what the query's {@code collate "C"} adds on an en_US one.
 */
@QuarkusTest
@QuarkusTestResource(StowageStackResource.class)
class ObjectPagingTest {
    private final String store = "paging-" + UUID.randomUUID().toString().substring(0, 8);
    // Java String order = byte order for ASCII: 'B' (0x42) < '_' (0x5f) < 'a' (0x61)
    private final List<String> keys = List.of("k/B.bin", "k/_x.bin", "k/a.bin", "k/a/b.bin", "k/b.bin");

    @Test
    void pagesTheObjectsOfOneStoreInByteOrderOfKeys() throws SQLException {
        StackEndpoints stack = EmbeddedStack.shared();
        try (Connection db = DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword())) {
            for (int i = keys.size() - 1; i >= 0; i--) {
                insert(db, store, keys.get(i), 100 + i, String.valueOf(i).repeat(64));
            }
            insert(db, store + "-other", "k/0.bin", 1, "f".repeat(64));
        }

        JsonPath first = page("&limit=2");
        assertThat(first.getList("objects.key", String.class)).containsExactly("k/B.bin", "k/_x.bin");
        assertThat(first.getString("next")).isEqualTo("k/_x.bin");
        assertThat(first.getString("objects[0].store")).isEqualTo(store);
        assertThat(first.getString("objects[0].bucket")).isEqualTo("stowage-primary");
        assertThat(first.getLong("objects[0].bytes")).isEqualTo(100);
        assertThat(first.getString("objects[0].sha256")).isEqualTo("0".repeat(64));
        assertThat(first.getString("objects[0].kind")).isEqualTo("SHARD");
        assertThat(first.getString("objects[0].headResult")).isEqualTo("OK");
        assertThat(first.getString("objects[0].fullReadResult")).isNull();

        List<String> seen = new ArrayList<>(first.getList("objects.key", String.class));
        String next = first.getString("next");
        int pages = 1;
        while (next != null) {
            JsonPath page = page("&limit=2&after=" + next);
            seen.addAll(page.getList("objects.key", String.class));
            next = page.getString("next");
            pages++;
        }
        assertThat(seen).containsExactlyElementsOf(keys);
        assertThat(pages).isEqualTo(3);

        JsonPath all = page("");
        assertThat(all.getList("objects.key", String.class)).containsExactlyElementsOf(keys);
        assertThat(all.getString("next")).isNull();
        assertThat(all.getList("objects.sha256", String.class)).containsExactly(
                "0".repeat(64), "1".repeat(64), "2".repeat(64), "3".repeat(64), "4".repeat(64));

        JsonPath exact = page("&limit=5");
        assertThat(exact.getList("objects.key")).hasSize(5);
        assertThat(exact.getString("next")).as("no row follows the fifth").isNull();

        given().get("/api/objects").then().statusCode(400);
        given().get("/api/objects?store=primary&limit=0").then().statusCode(400);
        given().get("/api/objects?store=primary&limit=1001").then().statusCode(400);
    }

    private JsonPath page(String query) {
        return given().get("/api/objects?store=" + store + query).then().statusCode(200).extract().jsonPath();
    }

    private static void insert(Connection db, String store, String key, long bytes, String sha256) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("""
                insert into ledger_object (store, bucket, object_key, asset_id, kind, bytes, sha256, head_result)
                values (?, 'stowage-primary', ?, 'dataset/paging/r1', 'SHARD', ?, ?, 'OK')""")) {
            s.setString(1, store);
            s.setString(2, key);
            s.setLong(3, bytes);
            s.setString(4, sha256);
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
    }
}
